import type { LocalFunction } from '../../../tools/local/registry.js';

const choicesOf = (args: Record<string, unknown>) => (Array.isArray(args.choices) && args.choices.length ? args.choices.map(String) : undefined);

/**
 * core.askUser: the question goes to the person through whoever runs the
 * call (a chat keeps it waiting in its file; an agent or an MCP client asks
 * live), and the answer is the result.
 */
export const askUser: LocalFunction = Object.assign(
  async (args: Record<string, unknown>, context: Parameters<LocalFunction>[1]) => {
    if (!context.askUser) {
      throw new Error('Asking the user works inside a chat, where the question is shown to you; there is no one to ask here.');
    }
    return { answer: await context.askUser(String(args.question), choicesOf(args)) };
  },
  {
    question: (args: Record<string, unknown>) => {
      const choices = choicesOf(args);
      return { text: typeof args.question === 'string' ? args.question : '', ...(choices ? { choices } : {}) };
    },
  },
);
