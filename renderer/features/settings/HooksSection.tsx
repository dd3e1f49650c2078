import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HOOK_EVENTS, type Hooks } from '../../../shared/schemas/hooks.js';
import { convertedOf, readHookText, type ConvertedHooks } from '../../components/hook-text.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { ConvertedHooksNote } from '../../components/ConvertedHooksNote.js';
import { HookTrial } from './HookTrial.js';
import { TracesField } from './TracesField.js';
import { usePatchSettings, useSettings } from '../../queries/tools.js';

// An example in the shape people copy from Claude Code's documentation; commands and event names are not translated.
const EXAMPLE = JSON.stringify({ PreToolUse: [{ matcher: 'forecast|mcp__github__.*', hooks: [{ type: 'command', command: 'node guard.mjs', timeout: 30 }] }] }, null, 2);

const shown = (hooks: Hooks | undefined) => (hooks && Object.keys(hooks).length > 0 ? JSON.stringify(hooks, null, 2) : '');

/** Settings → Hooks: the person's hooks as JSON in Claude Code's format, checked by the core when saved. */
export function HooksSection() {
  const { t } = useTranslation();
  const settings = useSettings();
  const patch = usePatchSettings();
  const saved = settings.data?.hooks;
  // What the person is editing; until they edit (and again once saved), the saved hooks as they are now.
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? shown(saved);
  const [problem, setProblem] = useState<string | null>(null);
  // Another app's file, shown in Claude Code's shape for the person to read before it is saved (and so runs).
  const [converted, setConverted] = useState<ConvertedHooks | null>(null);
  const counts = HOOK_EVENTS.flatMap((event) => {
    const handlers = (saved?.[event] ?? []).reduce((sum, entry) => sum + entry.hooks.length, 0);
    return handlers ? [t('hooks.summary', { event, count: handlers })] : [];
  });
  const save = () => {
    const read = readHookText(text);
    if ('problem' in read) return setProblem(t('hooks.invalidJson', { reason: read.problem }));
    setProblem(null);
    const otherApp = convertedOf(read);
    if (otherApp) {
      setConverted(otherApp);
      return setDraft(JSON.stringify(read.hooks, null, 2));
    }
    setConverted(null);
    patch.mutate({ hooks: read.hooks }, { onSuccess: () => setDraft(null) });
  };
  return (
    <section className="card" aria-labelledby="hooks-title">
      <h2 id="hooks-title" className="card__title">
        {t('hooks.title')}
      </h2>
      <p className="muted">{t('hooks.description')}</p>
      <p className="callout callout--warn">{t('hooks.warning')}</p>
      <p role="status">{counts.length ? counts.join(' · ') : t('hooks.none')}</p>
      {converted && <ConvertedHooksNote converted={converted} saveLabel={t('hooks.save')} />}
      <label className="field">
        <span className="field__label">{t('hooks.label')}</span>
        <textarea className="input input--code" dir="ltr" translate="no" spellCheck={false} rows={12} value={text} placeholder={EXAMPLE} onChange={(event) => setDraft(event.target.value)} />
      </label>
      <div className="row">
        <button type="button" className="button button--primary" disabled={!settings.data || patch.isPending} onClick={save}>
          {t('hooks.save')}
        </button>
      </div>
      <ErrorLine message={problem ?? (patch.isError ? errorMessage(patch.error, t('common.saveFailed')) : null)} />
      <HookTrial
        draft={() => {
          const read = readHookText(text);
          return 'problem' in read ? read : read.hooks;
        }}
      />
      <TracesField />
    </section>
  );
}
