import { useTranslation } from 'react-i18next';
import type { Chat } from '../../../shared/schemas/chat.js';
import { useUiStore } from '../../state/ui.js';

const SETTINGS_CODES = new Set(['provider_auth', 'provider_unreachable', 'not_found', 'tools_unsupported']);

/** How the last run ended when it was not a plain answer, with the next step. */
export function RunNotice({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const openSettings = useUiStore((state) => state.openSettings);
  const outcome = chat.lastRun;
  if (!outcome || chat.status === 'running' || !['error', 'max_turns', 'tool_error', 'length'].includes(outcome.reason)) return null;
  const bad = outcome.reason === 'error';
  return (
    <div className={`run-notice callout ${bad ? 'callout--bad' : 'callout--warn'}`} role={bad ? 'alert' : 'status'}>
      {outcome.error ? <code>{outcome.error.code}</code> : null} {outcome.message ?? outcome.error?.message}
      {outcome.error && SETTINGS_CODES.has(outcome.error.code) ? (
        <button type="button" className="button button--small" onClick={() => openSettings('providers')}>
          {t('chat.openSettings')}
        </button>
      ) : null}
    </div>
  );
}
