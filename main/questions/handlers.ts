import type { Handlers } from '../api/dispatcher.js';
import type { LiveQuestions } from './live-questions.js';

/** questions.*: what running tools are waiting on, and the person's answers. */
export function questionHandlers(questions: LiveQuestions): Pick<Handlers, 'questions.list' | 'questions.answer'> {
  return {
    'questions.list': () => ({ questions: questions.list() }),
    'questions.answer': ({ id, answer }) => {
      questions.answer(id, answer);
      return null;
    },
  };
}
