import type { ElicitResult } from '@modelcontextprotocol/client';

/** What a server may ask of the person while one of its tools runs (a form). */
export type AskPerson = (message: string, schema: Record<string, unknown>, signal: AbortSignal) => Promise<ElicitResult>;

/**
 * One server's questions to the person. The protocol does not tie a server's
 * question to the call it belongs to (not over stdio), so questions are
 * withdrawn when no call is running any more: a cancelled call must not leave
 * its form open for ten minutes.
 */
export class ServerQuestions {
  private scope = new AbortController();
  private open = 0;

  constructor(private readonly askPerson: AskPerson) {}

  async ask(message: string, schema: Record<string, unknown>, signal: AbortSignal): Promise<ElicitResult> {
    this.open++;
    try {
      return await this.askPerson(message, schema, AbortSignal.any([signal, this.scope.signal]));
    } finally {
      this.open--;
    }
  }

  /** A 2026 task's question (an elicitation request's params), asked the same way. */
  askParams(params: Record<string, unknown>, signal: AbortSignal): Promise<ElicitResult> {
    const message = typeof params.message === 'string' ? params.message : '';
    const schema = typeof params.requestedSchema === 'object' && params.requestedSchema !== null ? (params.requestedSchema as Record<string, unknown>) : {};
    return this.ask(message, schema, signal);
  }

  withdraw(): void {
    // Aborting costs an event and an exception object: only when a question is open.
    if (this.open === 0) return;
    this.scope.abort();
    this.scope = new AbortController();
  }
}
