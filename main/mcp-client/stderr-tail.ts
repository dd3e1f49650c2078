/** Lines of a server's stderr kept for the person, and how long one may be. */
const LINES_KEPT = 20;
const LINE_CHARS = 2_000;

/**
 * The last lines a server wrote to stderr, bounded whatever it writes: a line
 * without an end (hundreds of megabytes of it) is kept as its last part, not
 * gathered whole.
 */
export class StderrTail {
  readonly lines: string[] = [];
  private partial = '';

  write(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    if (this.partial.length > LINE_CHARS) this.partial = `…${this.partial.slice(-LINE_CHARS)}`;
    for (const line of parts.slice(-LINES_KEPT)) {
      if (line.trim() !== '') this.lines.push(line.length > LINE_CHARS ? `…${line.slice(-LINE_CHARS)}` : line);
    }
    this.lines.splice(0, Math.max(0, this.lines.length - LINES_KEPT));
  }
}
