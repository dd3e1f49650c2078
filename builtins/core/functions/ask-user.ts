import type { LocalFunction } from '../../../main/tools/local/registry.js';

/** core.askUser: the chat shows the question and resumes with the answer. */
export const askUser: LocalFunction = async (args, context) => {
  if (!context.askUser) {
    throw new Error('Asking the user works inside a chat, where the question is shown to you; there is no one to ask here.');
  }
  const choices = Array.isArray(args.choices) ? args.choices.map(String) : undefined;
  return { answer: await context.askUser(String(args.question), choices) };
};
