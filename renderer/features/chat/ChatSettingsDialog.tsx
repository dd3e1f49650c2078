import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
import { TOOL_ERROR_LIMIT_DEFAULT, type Chat } from '../../../shared/schemas/chat.js';
import { ConvertedHooksNote } from '../../components/ConvertedHooksNote.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { convertedOf, readHookText, type ConvertedHooks } from '../../components/hook-text.js';
import { Modal, SaveCancelActions } from '../../components/Modal.js';
import { JsonEditor } from '../../components/monaco/JsonEditor.js';
import { useUpdateChat } from '../../queries/chats.js';
import { useCapabilities } from '../../queries/providers.js';

/** What is wrong with a typed temperature, as a sentence; null when it is fine (empty means the server's default). */
export function temperatureProblem(text: string): string | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  if (!Number.isFinite(value)) return i18n.t('chatSettings.temperatureNumber');
  if (value < 0 || value > 2) return i18n.t('chatSettings.temperatureRange');
  return null;
}

/** What is wrong with a typed turn limit, as a sentence; null when it is fine. */
export function maxTurnsProblem(text: string): string | null {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 1 || value > 100) return i18n.t('chatSettings.turnsRange');
  return null;
}

/** What is wrong with a typed failure limit, as a sentence; null when it is fine. */
export function toolErrorLimitProblem(text: string): string | null {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 2 || value > 20) return i18n.t('chatSettings.failuresRange');
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
    return { problem: i18n.t('chatSettings.schemaNotJson') };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { problem: i18n.t('chatSettings.schemaObject') };
  return { schema: parsed as Record<string, unknown> };
}

/** The chat's run settings: system prompt, temperature, turn limit, what a failed tool does, parallel calls, manual mode, the answer's form. */
// Claude Code's shape; commands and event names are not translated.
const HOOKS_EXAMPLE = '{"PreToolUse": [{"matcher": "create-issue", "hooks": [{"type": "command", "command": "node guard.mjs"}]}]}';

export function ChatSettingsDialog({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const { t } = useTranslation();
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
  const [hooksText, setHooksText] = useState(chat.hooks && Object.keys(chat.hooks).length ? JSON.stringify(chat.hooks, null, 2) : '');
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const parallelAlways = useCapabilities(chat.providerId, chat.model).data?.parallelToolCalls === 'always';
  const temperatureError = temperatureProblem(temperature);
  const maxTurnsError = maxTurnsProblem(maxTurns);
  const toolErrorLimitError = onToolError === 'halt_after' ? toolErrorLimitProblem(toolErrorLimit) : null;
  const answer = jsonAnswer ? answerSchemaFrom(schemaText) : null;
  const schemaError = answer && 'problem' in answer ? answer.problem : null;
  const hooks = readHookText(hooksText);
  const hooksError = 'problem' in hooks ? t('hooks.invalidJson', { reason: hooks.problem }) : null;
  // Another app's file, shown in Claude Code's shape for the person to read before it is saved (and so runs).
  const [converted, setConverted] = useState<ConvertedHooks | null>(null);
  const invalid = temperatureError !== null || maxTurnsError !== null || toolErrorLimitError !== null || schemaError !== null || hooksError !== null;
  const touch = (field: string) => setTouched((current) => ({ ...current, [field]: true }));

  const save = () => {
    setTouched({ temperature: true, maxTurns: true, toolErrorLimit: true, schema: true, hooks: true });
    if (invalid) return;
    const otherApp = 'problem' in hooks ? null : convertedOf(hooks);
    if (otherApp && 'hooks' in hooks) {
      setConverted(otherApp);
      return setHooksText(JSON.stringify(hooks.hooks, null, 2));
    }
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
        hooks: 'hooks' in hooks ? hooks.hooks : {},
      },
      { onSuccess: onClose },
    );
  };

  return (
    <Modal title={t('chatSettings.title')} wide onDismiss={onClose} initialFocus={systemBox} description={t('chatSettings.applies')}>
      <form
        className="chat-settings"
        aria-label={t('chatSettings.title')}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <div className="field">
          <label className="field__label" htmlFor={`${id}-system`}>
            {t('chatSettings.system')}
          </label>
          <textarea
            ref={systemBox}
            id={`${id}-system`}
            className="input chat-settings__system"
            rows={6}
            maxLength={100_000}
            value={system}
            placeholder={t('chatSettings.systemPlaceholder')}
            onChange={(event) => setSystem(event.target.value)}
          />
        </div>
        <div className="chat-settings__row">
          <div className="field">
            <label className="field__label" htmlFor={`${id}-temperature`}>
              {t('chatSettings.temperature')}
            </label>
            <input
              id={`${id}-temperature`}
              className="input"
              inputMode="decimal"
              value={temperature}
              placeholder={t('chatSettings.serverDefault')}
              aria-invalid={touched.temperature && temperatureError ? true : undefined}
              aria-describedby={`${id}-temperature-help`}
              onChange={(event) => setTemperature(event.target.value)}
              onBlur={() => touch('temperature')}
            />
            <p id={`${id}-temperature-help`} className="field__help">
              {t('chatSettings.temperatureHelp')}
            </p>
            <ErrorLine message={touched.temperature ? temperatureError : null} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-turns`}>
              {t('chatSettings.turns')}
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
              {t('chatSettings.turnsHelp')}
            </p>
            <ErrorLine message={touched.maxTurns ? maxTurnsError : null} />
          </div>
        </div>
        <fieldset className="field chat-settings__choice">
          <legend className="field__label">{t('chatSettings.whenFails')}</legend>
          <label className="radio">
            <input type="radio" name={`${id}-on-error`} checked={onToolError === 'continue'} onChange={() => setOnToolError('continue')} />
            {t('chatSettings.goOn')}
          </label>
          <label className="radio">
            <input type="radio" name={`${id}-on-error`} checked={onToolError === 'halt'} onChange={() => setOnToolError('halt')} />
            {t('chatSettings.stop')}
          </label>
          <span className="radio chat-settings__limit">
            <input type="radio" id={`${id}-halt-after`} name={`${id}-on-error`} checked={onToolError === 'halt_after'} onChange={() => setOnToolError('halt_after')} />
            <label htmlFor={`${id}-halt-after`}>{t('chatSettings.stopAfter')}</label>
            <input
              className="input input--small chat-settings__count"
              inputMode="numeric"
              aria-label={t('chatSettings.failuresLabel')}
              value={toolErrorLimit}
              disabled={onToolError !== 'halt_after'}
              aria-invalid={touched.toolErrorLimit && toolErrorLimitError ? true : undefined}
              onChange={(event) => setToolErrorLimit(event.target.value)}
              onBlur={() => touch('toolErrorLimit')}
            />
            <span>{t('chatSettings.timesInARow')}</span>
          </span>
          <ErrorLine message={touched.toolErrorLimit ? toolErrorLimitError : null} />
        </fieldset>
        <label className="checkbox">
          <input type="checkbox" checked={parallel || parallelAlways} disabled={parallelAlways} aria-describedby={parallelAlways ? `${id}-parallel-help` : undefined} onChange={(event) => setParallel(event.target.checked)} />
          {t('chatSettings.parallel')}
        </label>
        {parallelAlways ? (
          <p id={`${id}-parallel-help`} className="field__help chat-settings__note">
            {t('chatSettings.parallelAlways', { model: chat.model })}
          </p>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" checked={manual} onChange={(event) => setManual(event.target.checked)} />
          {t('chatSettings.manual')}
        </label>
        <fieldset className="field chat-settings__choice">
          <legend className="field__label">{t('chatSettings.finalAnswer')}</legend>
          <label className="radio">
            <input type="radio" name={`${id}-answer`} checked={!jsonAnswer} onChange={() => setJsonAnswer(false)} />
            {t('chatSettings.text')}
          </label>
          <label className="radio">
            <input type="radio" name={`${id}-answer`} checked={jsonAnswer} onChange={() => setJsonAnswer(true)} />
            {t('chatSettings.json')}
          </label>
          {jsonAnswer ? (
            <>
              <p id={`${id}-schema-help`} className="field__help">
                {t('chatSettings.schemaHelp')}
              </p>
              <JsonEditor label={t('chatSettings.answerSchema')} value={schemaText} onChange={(text) => { setSchemaText(text); touch('schema'); }} height={170} />
              <ErrorLine message={touched.schema ? schemaError : null} />
            </>
          ) : null}
        </fieldset>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-hooks`}>
            {t('chatSettings.hooks')}
          </label>
          {converted ? <ConvertedHooksNote converted={converted} saveLabel={t('common.save')} /> : null}
          <textarea
            id={`${id}-hooks`}
            className="input input--code"
            dir="ltr"
            translate="no"
            spellCheck={false}
            rows={4}
            value={hooksText}
            placeholder={HOOKS_EXAMPLE}
            aria-describedby={`${id}-hooks-help`}
            aria-invalid={touched.hooks && hooksError ? true : undefined}
            onChange={(event) => {
              setHooksText(event.target.value);
              setConverted(null);
            }}
            onBlur={() => touch('hooks')}
          />
          <p id={`${id}-hooks-help`} className="field__help">
            {t('chatSettings.hooksHelp')}
          </p>
          <ErrorLine message={touched.hooks ? hooksError : null} />
        </div>
        <ErrorLine message={update.isError ? errorMessage(update.error, t('chatSettings.saveFailed')) : null} />
        <SaveCancelActions onCancel={onClose} saveDisabled={update.isPending || (invalid && Object.keys(touched).length > 0)} />
      </form>
    </Modal>
  );
}
