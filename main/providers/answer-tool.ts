import type { ToolDefinition } from './model.js';

/** The tool a model calls with its final answer where the provider holds it to a schema by forcing a tool call. */
export const ANSWER_TOOL_NAME = 'final_answer';

export interface AnswerTool {
  definition: ToolDefinition;
  /** The answer out of the tool's arguments. */
  valueOf(args: Record<string, unknown>): unknown;
}

/**
 * Tool inputs are objects: an object schema is the input itself; any other
 * (an array, a string) is wrapped as the input's one property, `answer`.
 */
export function answerTool(schema: Record<string, unknown>): AnswerTool {
  const isObject = schema.type === 'object';
  return {
    definition: {
      name: ANSWER_TOOL_NAME,
      description: 'Give your final answer. Call this once you have it, with the answer as its input; do not answer in text.',
      parameters: isObject ? schema : { type: 'object', properties: { answer: schema }, required: ['answer'] },
    },
    valueOf: (args) => (isObject ? args : args.answer),
  };
}
