import { Trans, useTranslation } from 'react-i18next';
import { useEffect, useRef, useState } from 'react';
import type { PendingItem, RequestPreview } from '../../../shared/schemas/chat.js';
import { Modal } from '../../components/Modal.js';
import { JsonEditor } from '../../components/monaco/JsonEditor.js';
import { useApi } from '../../api/context.js';
import { useApprove } from '../../queries/chats.js';
import { useTool } from '../../queries/tools.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { issueLine } from '../../components/issue-text.js';

type Issues = { path: string; message: string }[];

function requestText(preview: RequestPreview): string {
  const headers = Object.entries(preview.headers).map(([name, value]) => `\n${name}: ${value}`).join('');
  return `${preview.method} ${preview.url}${headers}${preview.body ? `\n\n${preview.body}` : ''}`;
}

/**
 * "Approve tool call": the tool, why it asks, its arguments (editable, checked
 * as you type), and for HTTP tools the exact request with secrets as •••.
 * Enter allows once (focus starts there); Esc denies.
 */
export function ApprovalDialog({ chatId, item, position }: { chatId: string; item: PendingItem; position?: { index: number; count: number } }) {
  const { t } = useTranslation();
  const api = useApi();
  const approve = useApprove();
  const tool = useTool({ bundleID: item.tool.bundleID, slug: item.tool.slug, version: item.tool.version });
  const original = JSON.stringify(item.args, null, 2);
  const [text, setText] = useState(original);
  const [issues, setIssues] = useState<Issues>([]);
  // The request the edited arguments make, once the core has built it; until then the old one is marked as such.
  const [editedPreview, setEditedPreview] = useState<{ text: string; preview: RequestPreview | undefined } | null>(null);
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const allowButton = useRef<HTMLButtonElement>(null);

  const parsed = (() => {
    try {
      const value = JSON.parse(text) as unknown;
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  })();
  const edited = text !== original;
  const parseError = parsed ? null : t('approval.notObject');
  const shownIssues = edited ? issues : [];

  useEffect(() => {
    if (!parsed || !edited) return;
    const timer = setTimeout(() => {
      api.tools
        .checkArgs({ bundleID: item.tool.bundleID, toolSlug: item.tool.slug, version: item.tool.version, args: parsed })
        .then(
          (result) => {
            setIssues(result.issues);
            setEditedPreview({ text, preview: result.preview });
          },
          () => setIssues([]),
        );
    }, 200);
    return () => clearTimeout(timer);
    // `parsed` is derived from text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  const decide = (decision: 'allow' | 'allow_always' | 'deny') => {
    setFailure(null);
    approve.mutate(
      {
        chatId,
        callId: item.callId,
        decision,
        ...(decision !== 'deny' && edited && parsed ? { args: parsed } : {}),
        ...(decision === 'deny' && reason.trim() ? { message: reason.trim() } : {}),
      },
      { onError: (error) => setFailure(errorMessage(error, t('approval.notDelivered'))) },
    );
  };
  // The core's answer for the arguments as they stand now (not for an earlier edit), and the request it built.
  const checked = edited && editedPreview?.text === text;
  const rebuilt = checked ? editedPreview.preview : undefined;
  const blocked = parseError !== null || shownIssues.length > 0 || approve.isPending;

  return (
    <Modal
      title={position && position.count > 1 ? t('approval.titleOf', { number: position.index + 1, count: position.count }) : t('approval.title')}
      wide
      onDismiss={() => decide('deny')}
      initialFocus={allowButton}
      description={
        <p>
          <strong>{item.tool.displayName}</strong> <span className="muted">{t('approval.toolOf', { name: item.tool.name, bundle: item.tool.bundleName })}</span>
          <br />
          {item.approvalBy ? t(`approval.by.${item.approvalBy}`) : (item.reason ?? t('approval.asksFirst'))}
        </p>
      }
    >
      {item.preview ? (
        <section className="approval__request" aria-label={t('approval.requestRegion')}>
          <h3 className="subhead">{t('approval.request')}</h3>
          <pre className="code-block">{requestText(rebuilt ?? item.preview)}</pre>
          {edited && !checked ? <p className="muted">{t('approval.building')}</p> : null}
          {edited && checked && !rebuilt ? <p className="muted">{t('approval.builtOnceValid')}</p> : null}
        </section>
      ) : null}
      <h3 className="subhead">{t('toolCall.arguments')}</h3>
      <JsonEditor label={t('toolCall.arguments')} value={original} onChange={setText} schema={tool.data?.status === 'valid' ? tool.data.argSchema : undefined} height={180} />
      {parseError ? <p className="field__error">{parseError}</p> : null}
      {shownIssues.map((issue) => (
        <p key={issue.path + issue.message} className="field__error">
          {issueLine(issue)}
        </p>
      ))}
      <div className="field">
        <label className="field__label" htmlFor={`deny-reason-${item.callId}`}>
          {t('approval.denyReason')}
        </label>
        <input id={`deny-reason-${item.callId}`} className="input" value={reason} onChange={(event) => setReason(event.target.value)} />
      </div>
      <ErrorLine message={failure} />
      <div className="modal__actions">
        <button ref={allowButton} type="button" className="button button--primary" disabled={blocked} onClick={() => decide('allow')}>
          {t('approval.allowOnce')}
        </button>
        <button type="button" className="button" disabled={blocked} onClick={() => decide('allow_always')}>
          {t('approval.allowAlways')}
        </button>
        <button type="button" className="button button--danger" disabled={approve.isPending} onClick={() => decide('deny')}>
          {t('approval.deny')}
        </button>
        <span className="muted modal__keys">
          {blocked && !approve.isPending ? (
            // Allow waits for arguments the tool accepts; Enter would do nothing, so it is not offered.
            t('approval.fixFirst')
          ) : (
            <Trans i18nKey="approval.enterAllows" components={[<kbd className="kbd" />]} />
          )}
          <Trans i18nKey="approval.escDenies" components={[<kbd className="kbd" />]} />
        </span>
      </div>
    </Modal>
  );
}
