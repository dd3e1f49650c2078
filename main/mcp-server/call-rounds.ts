import { randomUUID } from 'node:crypto';

/** What a tool asks the person mid-call (the ask-user built-in, or an agent's question). */
export interface Question {
  question: string;
  choices?: string[];
}

/** Where a call that may ask is now: it asked (and waits for the answer), or it is over with what it answers. */
export type CallStep<T> = { kind: 'asks'; question: Question } | { kind: 'done'; answer: T };

/** A question with no answer in this long ends its call: as long as the SDK's own wait for an elicitation. */
export const ANSWER_WAIT_MS = 10 * 60_000;
/** Calls waiting for an answer at once; past it a question fails the call that asks (a flood cannot hold the host's memory). */
export const MAX_WAITING_CALLS = 64;

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // Nobody may be waiting when it fails (the client never came back): that is not a crash.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** The person did not answer: declined, cancelled, or the question waited too long. */
export class NotAnswered extends Error {
  constructor(message = 'The person did not answer.') {
    super(message);
  }
}

/**
 * One tool call that may ask the person mid-way, held across the requests of
 * MCP's multi-round-trip pattern (2026-07-28: the server answers
 * `input_required`, the client asks and calls again with the answer and the
 * state the server gave). The call itself keeps running in this process
 * between those requests; each request takes it to its next step.
 */
export class CallInProgress<T> {
  readonly id = randomUUID();
  private step = deferred<CallStep<T>>();
  private answer: Deferred<string> | null = null;
  private readonly controller = new AbortController();

  constructor(run: (ask: (question: Question) => Promise<string>, signal: AbortSignal) => Promise<T>) {
    run((question) => this.ask(question), this.controller.signal).then(
      (answer) => this.step.resolve({ kind: 'done', answer }),
      (error: unknown) => this.step.reject(error),
    );
  }

  /** The call's next step: it asked, or it ended. */
  next(): Promise<CallStep<T>> {
    return this.step.promise;
  }

  /** The person's answer to the question the call waits on (or that they gave none); the call goes on. */
  answered(text: string | NotAnswered): void {
    const waiting = this.answer;
    if (!waiting) return;
    this.answer = null;
    this.step = deferred();
    if (text instanceof NotAnswered) waiting.reject(text);
    else waiting.resolve(text);
  }

  /** Ends the call: its client went away, or it waited too long for an answer. */
  abort(reason: string): void {
    this.answered(new NotAnswered(reason));
    this.controller.abort(new Error(reason));
  }

  private ask(question: Question): Promise<string> {
    // One question at a time: a tool that asks twice at once gets the second refused rather than lost.
    if (this.answer) return Promise.reject(new NotAnswered('A question is already waiting for the person.'));
    this.answer = deferred();
    const { promise } = this.answer;
    this.step.resolve({ kind: 'asks', question });
    return promise;
  }
}

/**
 * The calls that asked and wait for their client to come back with the
 * answer, by id; bounded in number and in time.
 */
export class WaitingCalls<T, C> {
  private readonly calls = new Map<string, { call: CallInProgress<T>; context: C; timer: NodeJS.Timeout }>();

  constructor(private readonly waitMs = ANSWER_WAIT_MS) {}

  get size(): number {
    return this.calls.size;
  }

  /** Keeps a call, with what its next round needs, until its answer comes; false when too many wait already (the call is then ended). */
  keep(call: CallInProgress<T>, context: C): boolean {
    if (this.calls.size >= MAX_WAITING_CALLS) {
      call.abort('Toolbelt has too many calls waiting for answers. Answer or cancel one, then call again.');
      return false;
    }
    const timer = setTimeout(() => {
      this.calls.delete(call.id);
      call.abort('The question waited too long for an answer.');
    }, this.waitMs);
    timer.unref();
    this.calls.set(call.id, { call, context, timer });
    return true;
  }

  /** The waiting call with this id, no longer waiting; undefined when it ended (waited too long, or never was). */
  take(id: string): { call: CallInProgress<T>; context: C } | undefined {
    const kept = this.calls.get(id);
    if (!kept) return undefined;
    clearTimeout(kept.timer);
    this.calls.delete(id);
    return { call: kept.call, context: kept.context };
  }

  /** Ends every waiting call (the server stops). */
  endAll(): void {
    for (const { call, timer } of this.calls.values()) {
      clearTimeout(timer);
      call.abort('Toolbelt’s MCP server stopped.');
    }
    this.calls.clear();
  }
}
