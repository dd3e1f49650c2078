import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HOOK_EVENTS, type Hooks } from '../../../shared/schemas/hooks.js';
import { readHookFile, type ReadHookFile } from '../../../shared/hooks/hook-files.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { HookTrial } from './HookTrial.js';
import { TracesField } from './TracesField.js';
import { usePatchSettings, useSettings } from '../../queries/tools.js';

// An example in the shape people copy from Claude Code's documentation; commands and event names are not translated.
const EXAMPLE = JSON.stringify({ PreToolUse: [{ matcher: 'forecast|mcp__github__.*', hooks: [{ type: 'command', command: 'node guard.mjs', timeout: 30 }] }] }, null, 2);

const shown = (hooks: Hooks | undefined) => (hooks && Object.keys(hooks).length > 0 ? JSON.stringify(hooks, null, 2) : '');

/** The platform whose command a VS Code or Copilot hook names for it, as Node names it (the core runs it on this machine). */
const PLATFORM = /^win/i.test(navigator.platform) ? 'win32' : /^mac/i.test(navigator.platform) ? 'darwin' : 'linux';

/**
 * What was typed, as hooks: a `hooks` block or a whole `.claude/settings.json`, or another app's hook file
 * (VS Code's `.github/hooks/*.json`, Copilot's, Cursor's `.cursor/hooks.json`) read into the same shape.
 */
function readHooks(text: string): ReadHookFile | { problem: string } {
  if (!text.trim()) return { kind: 'claude', hooks: {}, skipped: [] };
  try {
    return readHookFile(JSON.parse(text), PLATFORM);
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

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
  const [converted, setConverted] = useState<{ kind: string; skipped: string[] } | null>(null);
  const counts = HOOK_EVENTS.flatMap((event) => {
    const handlers = (saved?.[event] ?? []).reduce((sum, entry) => sum + entry.hooks.length, 0);
    return handlers ? [t('hooks.summary', { event, count: handlers })] : [];
  });
  const save = () => {
    const read = readHooks(text);
    if ('problem' in read) return setProblem(t('hooks.invalidJson', { reason: read.problem }));
    setProblem(null);
    if (read.kind !== 'claude') {
      setConverted({ kind: read.kind, skipped: read.skipped.map((skip) => skip.event) });
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
      {converted && (
        <div className="callout callout--note" role="status">
          <p>{t('hooks.converted', { app: t(`hooks.app.${converted.kind as 'vscode' | 'copilot' | 'cursor'}`) })}</p>
          {converted.skipped.length > 0 && <p>{t('hooks.skipped', { events: converted.skipped.join(', ') })}</p>}
        </div>
      )}
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
          const read = readHooks(text);
          return 'problem' in read ? read : read.hooks;
        }}
      />
      <TracesField />
    </section>
  );
}
