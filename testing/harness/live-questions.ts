import type { LiveQuestion } from '../../shared/schemas/questions.js';
import type { Core } from '../../main/core/create-core.js';

/**
 * The first live question waiting for the person (an approval, an ask-user
 * form), as soon as the core says one is there: waits on the
 * `questions.changed` event, not on time.
 */
export function nextQuestion(core: Core): Promise<LiveQuestion> {
  const waiting = () => core.dispatcher.call('questions.list', {}, { transport: 'internal' }) as Promise<{ questions: LiveQuestion[] }>;
  return new Promise((resolve, reject) => {
    let done = false;
    const check = async () => {
      const { questions } = await waiting();
      if (done || !questions[0]) return;
      done = true;
      stop();
      resolve(questions[0]);
    };
    const stop = core.events.subscribe((event) => {
      if (event.type === 'questions.changed') check().catch(reject);
    });
    check().catch(reject);
  });
}
