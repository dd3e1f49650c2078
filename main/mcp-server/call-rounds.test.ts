import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANSWER_WAIT_MS, CallInProgress, MAX_WAITING_CALLS, NotAnswered, WaitingCalls } from './call-rounds.js';

/** A call that asks `times` questions and answers with what it was told, or with why it was not. */
function askingCall(times: number) {
  return new CallInProgress<string>(async (ask, signal) => {
    const answers: string[] = [];
    try {
      for (let round = 0; round < times; round++) answers.push(await ask({ question: `Question ${round + 1}?` }));
    } catch (error) {
      return `stopped: ${(error as Error).message}; aborted: ${signal.aborted}`;
    }
    return answers.join(', ');
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a call that asks the person across requests', () => {
  it('asks, takes each answer and ends with what it made of them', async () => {
    const call = askingCall(2);
    expect(await call.next()).toEqual({ kind: 'asks', question: { question: 'Question 1?' } });
    call.answered('Ada');
    expect(await call.next()).toEqual({ kind: 'asks', question: { question: 'Question 2?' } });
    call.answered(new NotAnswered());
    expect(await call.next()).toEqual({ kind: 'done', answer: 'stopped: The person did not answer.; aborted: false' });
  });

  it('ends a call whose answer does not come in time, and forgets it', async () => {
    vi.useFakeTimers();
    const waiting = new WaitingCalls<string, null>();
    const call = askingCall(1);
    await call.next();
    expect(waiting.keep(call, null)).toBe(true);
    vi.advanceTimersByTime(ANSWER_WAIT_MS);
    expect(waiting.take(call.id)).toBeUndefined();
    expect(await call.next()).toEqual({ kind: 'done', answer: 'stopped: The question waited too long for an answer.; aborted: true' });
  });

  it('holds no more than its limit of waiting calls: the next one is ended with what to do', async () => {
    const waiting = new WaitingCalls<string, null>();
    const calls = Array.from({ length: MAX_WAITING_CALLS + 1 }, () => askingCall(1));
    await Promise.all(calls.map((call) => call.next()));
    expect(calls.slice(0, MAX_WAITING_CALLS).every((call) => waiting.keep(call, null))).toBe(true);
    const last = calls.at(-1)!;
    expect(waiting.keep(last, null)).toBe(false);
    const ended = await last.next();
    expect(ended.kind === 'done' ? ended.answer : ended.question.question).toContain('too many calls waiting');
    waiting.endAll();
    expect(waiting.size).toBe(0);
    expect(await calls[0]!.next()).toEqual({ kind: 'done', answer: 'stopped: Toolbelt’s MCP server stopped.; aborted: true' });
  });
});
