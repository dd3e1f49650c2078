import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BundleView } from '../../../shared/schemas/bundle.js';
import type { BundleHooks } from '../../../shared/schemas/hooks.js';
import { listHooks } from '../../../shared/hooks/hook-list.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Modal } from '../../components/Modal.js';
import { usePatchBundle, usePutBundle } from '../../queries/tools.js';
import { bundleInputOf } from './bundle-input.js';
import { HookList } from './HookList.js';

// The shape people copy from Claude Code's documentation; commands and event names are not translated.
const EXAMPLE = JSON.stringify({ PreToolUse: [{ matcher: 'create-issue', hooks: [{ type: 'command', command: 'node check-labels.mjs', timeout: 30 }] }] }, null, 2);

const shown = (hooks: BundleHooks | undefined) => (hooks && Object.keys(hooks).length > 0 ? JSON.stringify(hooks, null, 2) : '');

/**
 * A bundle's own hooks: before and after its tools' calls, in Claude Code's shape, travelling in its ZIP. Hooks that
 * arrived with a bundle are off until the person reads every command and switches them on; hooks typed here are the
 * person's own and go on when saved.
 */
export function BundleHooksDialog({ bundle, onClose }: { bundle: BundleView; onClose: () => void }) {
  const { t } = useTranslation();
  const put = usePutBundle();
  const patch = usePatchBundle();
  const editor = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(shown(bundle.hooks));
  const [problem, setProblem] = useState<string | null>(null);
  const listed = listHooks(bundle.hooks);
  const busy = put.isPending || patch.isPending;
  const failed = (error: unknown) => setProblem(errorMessage(error, t('common.saveFailed')));

  const switchHooks = (on: boolean) => {
    setProblem(null);
    patch.mutate({ bundleID: bundle.bundleID, hooksOn: on ? bundle.hooksDigest! : false }, { onError: failed });
  };
  const save = () => {
    let hooks: BundleHooks | undefined;
    try {
      hooks = text.trim() ? (JSON.parse(text) as BundleHooks) : undefined;
    } catch (error) {
      return setProblem(t('hooks.invalidJson', { reason: (error as Error).message }));
    }
    setProblem(null);
    const { hooks: _previous, ...kept } = bundleInputOf(bundle);
    put.mutate(
      { ...kept, ...(hooks ? { hooks } : {}) },
      {
        // Typed here by the person: on as saved (the digest the core gives is of exactly what was written).
        onSuccess: (saved) => (saved.hooksDigest && !saved.hooksOn ? patch.mutate({ bundleID: bundle.bundleID, hooksOn: saved.hooksDigest }, { onSuccess: onClose, onError: failed }) : onClose()),
        onError: failed,
      },
    );
  };

  return (
    <Modal title={t('bundleHooks.title', { name: bundle.displayName })} description={t('bundleHooks.description')} onDismiss={onClose} wide initialFocus={editor}>
      <div className="stack">
        {listed.length > 0 ? (
          <div className={`callout ${bundle.hooksOn ? 'callout--note' : 'callout--warn'}`} role="status">
            <p>{bundle.hooksOn ? t('bundleHooks.on') : t('bundleHooks.off')}</p>
            <HookList hooks={listed} />
            {/* Not disabled while it works: a disabled button drops the keyboard's focus to the page. */}
            <button type="button" className="button button--small" aria-disabled={busy} onClick={() => (busy ? undefined : switchHooks(!bundle.hooksOn))}>
              {bundle.hooksOn ? t('bundleHooks.switchOff') : t('bundleHooks.switchOn')}
            </button>
          </div>
        ) : (
          <p role="status">{t('bundleHooks.none')}</p>
        )}
        <label className="field">
          <span className="field__label">{t('hooks.label')}</span>
          <textarea ref={editor} className="input input--code" dir="ltr" translate="no" spellCheck={false} rows={10} value={text} placeholder={EXAMPLE} onChange={(event) => setText(event.target.value)} />
        </label>
        <ErrorLine message={problem} />
      </div>
      <div className="modal__actions">
        <button type="button" className="button button--primary" aria-disabled={busy} onClick={() => (busy ? undefined : save())}>
          {t('hooks.save')}
        </button>
        <button type="button" className="button" onClick={onClose}>
          {t('bundleHooks.close')}
        </button>
      </div>
    </Modal>
  );
}
