import { newUuidV7 } from '../common/uuid-v7.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { LiveAnswer, LiveQuestion } from '../../shared/schemas/questions.js';
import type { EventBus } from '../api/event-bus.js';
import type { Clock } from '../common/clock.js';
import { createAjv, issuesFrom, type Validator } from '../common/validation.js';

/** More open questions than a person can answer is a server misbehaving; the rest are refused. */
const MAX_OPEN_QUESTIONS = 20;

interface OpenQuestion {
  question: LiveQuestion;
  validate: Validator;
  settle: (answer: LiveAnswer) => void;
}

/**
 * Questions a running tool asks the person now and waits on (MCP
 * elicitation). Every window sees them (a `questions.changed` event, then
 * `questions.list`); the first answer wins; a question whose asker gives up
 * (the call was cancelled or timed out) is withdrawn.
 */
export class LiveQuestions {
  private readonly open = new Map<string, OpenQuestion>();
  // Schemas come from servers: their patterns run on the linear-time engine.
  private readonly ajv = createAjv({ strict: false, peoplesSchemas: true });

  constructor(private readonly deps: { events: EventBus; clock: Clock }) {}

  /** Resolves with the person's answer; `cancel` when the signal aborts first. Throws `invalid_params` for a schema that cannot be used. */
  ask(from: LiveQuestion['from'], message: string, schema: Record<string, unknown>, signal: AbortSignal, approval?: LiveQuestion['approval']): Promise<LiveAnswer> {
    if (signal.aborted) return Promise.resolve({ action: 'cancel' });
    if (this.open.size >= MAX_OPEN_QUESTIONS) {
      throw new ToolbeltError('unavailable', `${MAX_OPEN_QUESTIONS} questions are already waiting for an answer; this one was refused.`);
    }
    let validate: Validator;
    try {
      validate = this.ajv.compile(schema);
    } catch (error) {
      throw new ToolbeltError('invalid_params', `The form asked for cannot be shown: ${error instanceof Error ? error.message : String(error)}`);
    }
    const question: LiveQuestion = { id: newUuidV7(), from, message, schema, ...(approval ? { approval } : {}), askedAt: this.deps.clock.now().toISOString() };
    return new Promise<LiveAnswer>((resolve) => {
      const withdraw = () => this.settle(question.id, { action: 'cancel' });
      signal.addEventListener('abort', withdraw, { once: true });
      this.open.set(question.id, {
        question,
        validate,
        settle: (answer) => {
          signal.removeEventListener('abort', withdraw);
          resolve(answer);
        },
      });
      this.changed();
    });
  }

  list(): LiveQuestion[] {
    return [...this.open.values()].map((entry) => entry.question);
  }

  answer(id: string, answer: LiveAnswer): void {
    const entry = this.open.get(id);
    if (!entry) throw new ToolbeltError('not_found', 'This question is no longer waiting: it was answered, or the tool that asked stopped.');
    if (answer.action === 'accept' && !entry.validate(answer.content)) {
      throw new ToolbeltError('invalid_params', 'Some answers are not what was asked for.', { issues: issuesFrom(entry.validate.errors) });
    }
    this.settle(id, answer);
  }

  /** Quitting: every asker hears "cancel". */
  close(): void {
    for (const id of [...this.open.keys()]) this.settle(id, { action: 'cancel' });
  }

  private settle(id: string, answer: LiveAnswer): void {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    entry.settle(answer);
    this.changed();
  }

  private changed(): void {
    this.deps.events.publish({ type: 'questions.changed' });
  }
}
