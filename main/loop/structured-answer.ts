import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ToolbeltError } from '../../shared/errors.js';
import type { AssistantMessage, Chat } from '../../shared/schemas/chat.js';
import { createAjv, describeIssues, issuesFrom, type Validator } from '../common/validation.js';

/**
 * Structured final answers: a chat (or one run) asks for JSON that matches a
 * JSON Schema. Providers that can hold the model to it do (response_format,
 * a forced answer tool); whatever arrives is checked here, and an answer
 * that does not match gets one more turn that says what was wrong.
 */

/** Compiled schemas, by their text: chats are read from disk, so the same schema comes as new objects. */
const KEPT_VALIDATORS = 50;
let ajv: Ajv2020 | null = null;
const validators = new Map<string, Validator>();

function validatorFor(schema: Record<string, unknown>): Validator {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    ajv ??= createAjv({ strict: false, peoplesSchemas: true });
    validate = ajv.compile(schema);
    ajv.removeSchema(schema);
    if (validators.size >= KEPT_VALIDATORS) validators.delete(validators.keys().next().value!);
    validators.set(key, validate);
  }
  return validate;
}

/** Refuses a schema that cannot check anything (ajv cannot compile it), with what is wrong. */
export function requireUsableAnswerSchema(schema: Record<string, unknown> | null | undefined): void {
  if (!schema) return;
  try {
    validatorFor(schema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolbeltError('invalid_params', `The answer schema is not a JSON Schema Toolbelt can check answers with: ${reason.slice(0, 300)}`);
  }
}

/** The schema the run in progress asks for: its own, else the chat's. */
export function answerSchemaOf(chat: Chat): Record<string, unknown> | undefined {
  return chat.run?.answerSchema ?? chat.answerSchema;
}

/** The JSON a text answer holds: the whole text, or the one fenced block it is wrapped in. */
function jsonOfText(text: string): { value: unknown } | null {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  try {
    return { value: JSON.parse(fenced ? fenced[1]! : trimmed) as unknown };
  } catch {
    return null;
  }
}

export type AnswerCheck = { ok: true; value: unknown } | { ok: false; problems: string };

/**
 * The final answer checked against the schema: the value a forced answer
 * tool gave, else the message's text read as JSON.
 */
export function checkAnswer(schema: Record<string, unknown>, message: AssistantMessage, given: { value: unknown } | undefined): AnswerCheck {
  const answer = given ?? jsonOfText(message.content);
  if (!answer) return { ok: false, problems: message.content.trim() ? 'the answer is not JSON' : 'there was no answer' };
  const validate = validatorFor(schema);
  if (validate(answer.value)) return { ok: true, value: answer.value };
  return { ok: false, problems: describeIssues(issuesFrom(validate.errors)) };
}

/** What the model is told on its one more turn: what was wrong, and the schema to match. */
export function answerNudge(schema: Record<string, unknown>, problems: string): string {
  return [
    `Your final answer does not match the JSON Schema this chat requires (${problems}).`,
    'Answer again with only the JSON value, no other text. The schema:',
    JSON.stringify(schema, null, 2),
  ].join('\n');
}
