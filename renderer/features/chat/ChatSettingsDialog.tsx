import { useId, useRef, useState } from 'react';
import { TOOL_ERROR_LIMIT_DEFAULT, type Chat } from '../../../shared/schemas/chat.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Modal, SaveCancelActions } from '../../components/Modal.js';
import { JsonEditor } from '../../components/monaco/JsonEditor.js';
import { useCapabilities, useUpdateChat } from '../../queries/chats.js';

/** What is wrong with a typed temperature, as a sentence; null when it is fine (empty means the server's default). */
export function temperatureProblem(text: string): string | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  if (!Number.isFinite(value)) return 'Type a number such as 0.7, or leave it empty for the server’s default.';
  if (value < 0 || value > 2) return 'Use a number from 0 to 2 (Anthropic takes 0 to 1).';
  return null;
}

/** What is wrong with a typed turn limit, as a sentence; null when it is fine. */
export function maxTurnsProblem(text: string): string | null {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 1 || value > 100) return 'Use a whole number from 1 to 100.';
  return null;
}

/** What is wrong with a typed failure limit, as a sentence; null when it is fine. */
export function toolErrorLimitProblem(text: string): string | null {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 2 || value > 20) return 'Use a whole number from 2 to 20.';
  return null;
}

/** What a person starts a schema from: an object with the fields they fill in. */
const ANSWER_SCHEMA_TEMPLATE = '{\n  "type": "object",\n  "properties": {\n    "summary": { "type": "string" }\n  },\n  "required": ["summary"]\n}';

/** The typed answer schema as an object, or what is wrong with it as a sentence. */
function answerSchemaFrom(text: string): { schema: Record<string, unknown> } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'The schema is not valid JSON yet: check its brackets, quotes and commas.' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { problem: 'The schema must be a JSON object, such as { "type": "object", "properties": { … } }.' };
  return { schema: parsed as Record<string, unknown> };
}

/** The chat's run settings: system prompt, temperature, turn limit, what a failed tool does, parallel calls, manual mode, the answer's form. */
export function ChatSettingsDialog({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const id = useId();
  const update = useUpdateChat();
  const systemBox = useRef<HTMLTextAreaElement>(null);
  const [system, setSystem] = useState(chat.system ?? '');
  const [temperature, setTemperature] = useState(chat.temperature === undefined ? '' : String(chat.temperature));
  const [maxTurns, setMaxTurns] = useState(String(chat.maxTurns));
  const [onToolError, setOnToolError] = useState(chat.onToolError);
  const [toolErrorLimit, setToolErrorLimit] = useState(String(chat.toolErrorLimit ?? TOOL_ERROR_LIMIT_DEFAULT));
  const [parallel, setParallel] = useState(chat.parallelToolCalls);
  const [manual, setManual] = useState(chat.toolRuns === 'manual');
  const [jsonAnswer, setJsonAnswer] = useState(chat.answerSchema !== undefined);
  const [schemaText, setSchemaText] = useState(chat.answerSchema ? JSON.stringify(chat.answerSchema, null, 2) : ANSWER_SCHEMA_TEMPLATE);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const parallelAlways = useCapabilities(chat.providerId, chat.model).data?.parallelToolCalls === 'always';
  const temperatureError = temperatureProblem(temperature);
  const maxTurnsError = maxTurnsProblem(maxTurns);
  const toolErrorLimitError = onToolError === 'halt_after' ? toolErrorLimitProblem(toolErrorLimit) : null;
  const answer = jsonAnswer ? answerSchemaFrom(schemaText) : null;
  const schemaError = answer && 'problem' in answer ? answer.problem : null;
  const invalid = temperatureError !== null || maxTurnsError !== null || toolErrorLimitError !== null || schemaError !== null;
  const touch = (field: string) => setTouched((current) => ({ ...current, [field]: true }));

  const save = () => {
    setTouched({ temperature: true, maxTurns: true, toolErrorLimit: true, schema: true });
    if (invalid) return;
    update.mutate(
      {
        chatId: chat.id,
        system,
        temperature: temperature.trim() === '' ? null : Number(temperature),
        maxTurns: Number(maxTurns),
        onToolError,
        ...(onToolError === 'halt_after' ? { toolErrorLimit: Number(toolErrorLimit) } : {}),
        parallelToolCalls: parallel,
        toolRuns: manual ? 'manual' : 'auto',
        answerSchema: answer && 'schema' in answer ? answer.schema : null,
      },
      { onSuccess: onClose },
    );
  };

  return (
    <Modal title="Chat settings" wide onDismiss={onClose} initialFocus={systemBox} description="They apply from the next message on.">
      <form
        className="chat-settings"
        aria-label="Chat settings"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <div className="field">
          <label className="field__label" htmlFor={`${id}-system`}>
            System prompt
          </label>
          <textarea
            ref={systemBox}
            id={`${id}-system`}
            className="input chat-settings__system"
            rows={6}
            maxLength={100_000}
            value={system}
            placeholder="How the model should behave in this chat (optional)"
            onChange={(event) => setSystem(event.target.value)}
          />
        </div>
        <div className="chat-settings__row">
          <div className="field">
            <label className="field__label" htmlFor={`${id}-temperature`}>
              Temperature
            </label>
            <input
              id={`${id}-temperature`}
              className="input"
              inputMode="decimal"
              value={temperature}
              placeholder="Server default"
              aria-invalid={touched.temperature && temperatureError ? true : undefined}
              aria-describedby={`${id}-temperature-help`}
              onChange={(event) => setTemperature(event.target.value)}
              onBlur={() => touch('temperature')}
            />
            <p id={`${id}-temperature-help`} className="field__help">
              Lower is steadier, higher more varied. Empty: the server decides.
            </p>
            <ErrorLine message={touched.temperature ? temperatureError : null} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-turns`}>
              Max model turns per message
            </label>
            <input
              id={`${id}-turns`}
              className="input"
              inputMode="numeric"
              value={maxTurns}
              aria-invalid={touched.maxTurns && maxTurnsError ? true : undefined}
              aria-describedby={`${id}-turns-help`}
              onChange={(event) => setMaxTurns(event.target.value)}
              onBlur={() => touch('maxTurns')}
            />
            <p id={`${id}-turns-help`} className="field__help">
              Each round of tool calls is a turn; the run stops after this many.
            </p>
            <ErrorLine message={touched.maxTurns ? maxTurnsError : null} />
          </div>
        </div>
        <fieldset className="field chat-settings__choice">
          <legend className="field__label">When a tool fails</legend>
          <label className="radio">
            <input type="radio" name={`${id}-on-error`} checked={onToolError === 'continue'} onChange={() => setOnToolError('continue')} />
            Tell the model and go on
          </label>
          <label className="radio">
            <input type="radio" name={`${id}-on-error`} checked={onToolError === 'halt'} onChange={() => setOnToolError('halt')} />
            Stop the run
          </label>
          <span className="radio chat-settings__limit">
            <input type="radio" id={`${id}-halt-after`} name={`${id}-on-error`} checked={onToolError === 'halt_after'} onChange={() => setOnToolError('halt_after')} />
            <label htmlFor={`${id}-halt-after`}>Go on, but stop when one tool fails</label>
            <input
              className="input input--small chat-settings__count"
              inputMode="numeric"
              aria-label="Failures in a row that stop the run"
              value={toolErrorLimit}
              disabled={onToolError !== 'halt_after'}
              aria-invalid={touched.toolErrorLimit && toolErrorLimitError ? true : undefined}
              onChange={(event) => setToolErrorLimit(event.target.value)}
              onBlur={() => touch('toolErrorLimit')}
            />
            <span>times in a row</span>
          </span>
          <ErrorLine message={touched.toolErrorLimit ? toolErrorLimitError : null} />
        </fieldset>
        <label className="checkbox">
          <input type="checkbox" checked={parallel || parallelAlways} disabled={parallelAlways} aria-describedby={parallelAlways ? `${id}-parallel-help` : undefined} onChange={(event) => setParallel(event.target.checked)} />
          Let the model call several tools at once
        </label>
        {parallelAlways ? (
          <p id={`${id}-parallel-help`} className="field__help chat-settings__note">
            {chat.model} decides this itself: its API cannot be told to call one tool at a time.
          </p>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" checked={manual} onChange={(event) => setManual(event.target.checked)} />
          Manual: nothing the model calls runs until I run, edit or reject it
        </label>
        <fieldset className="field chat-settings__choice">
          <legend className="field__label">Final answer</legend>
          <label className="radio">
            <input type="radio" name={`${id}-answer`} checked={!jsonAnswer} onChange={() => setJsonAnswer(false)} />
            Text
          </label>
          <label className="radio">
            <input type="radio" name={`${id}-answer`} checked={jsonAnswer} onChange={() => setJsonAnswer(true)} />
            JSON that matches a schema
          </label>
          {jsonAnswer ? (
            <>
              <p id={`${id}-schema-help`} className="field__help">
                The model is held to this JSON Schema where its API allows; the answer is checked, shown as a tree, and asked for once more when it does not match.
              </p>
              <JsonEditor label="Answer schema" value={schemaText} onChange={(text) => { setSchemaText(text); touch('schema'); }} height={170} />
              <ErrorLine message={touched.schema ? schemaError : null} />
            </>
          ) : null}
        </fieldset>
        <ErrorLine message={update.isError ? errorMessage(update.error, 'Could not save the settings.') : null} />
        <SaveCancelActions onCancel={onClose} saveDisabled={update.isPending || (invalid && Object.keys(touched).length > 0)} />
      </form>
    </Modal>
  );
}
