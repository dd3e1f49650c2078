import type { LoggingMessageNotification } from '@modelcontextprotocol/client';

/** How many of a server's log messages its panel keeps, and how long each may be. */
const KEPT = 50;
const CHARS = 1_000;

export interface ServerLogLine {
  level: string;
  text: string;
  at: string;
}

/**
 * What a server logged lately (MCP `notifications/message`), newest last,
 * bounded: a server that logs a flood keeps only its last KEPT lines.
 */
export class ServerLog {
  readonly lines: ServerLogLine[] = [];

  note({ level, logger, data }: LoggingMessageNotification['params'], at: Date): void {
    const said = typeof data === 'string' ? data : JSON.stringify(data) ?? String(data);
    const text = `${logger ? `${logger}: ` : ''}${said}`;
    this.lines.push({ level, text: text.length > CHARS ? `${text.slice(0, CHARS)}…` : text, at: at.toISOString() });
    this.lines.splice(0, Math.max(0, this.lines.length - KEPT));
  }
}
