import { Trans, useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/context.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { useChatUi } from '../../state/chat-ui.js';

/**
 * A chat whose file is not a valid chat, shown read-only: the problem and
 * where the file is, then whatever of its messages could be read, so a
 * person is never locked out of what they wrote.
 */
export function DamagedChat({ chatId }: { chatId: string }) {
  const { t } = useTranslation();
  const api = useApi();
  const select = useChatUi((state) => state.select);
  const salvage = useQuery({ queryKey: ['chats', 'salvage', chatId], queryFn: () => api.chats.salvage({ chatId }), retry: false });
  const data = salvage.data;
  return (
    <div className="chat-pane">
      <header className="chat-header">
        <h2 className="chat-header__title">{data?.chat.title ?? t('damaged.untitled')}</h2>
        <span className="badge badge--quiet">{t('damaged.readOnly')}</span>
      </header>
      <div className="damaged-chat">
        <div className="callout callout--warn" role="status">
          <p>
            <strong>{t('damaged.problem')}</strong> {data ? data.problem.reason : null}
          </p>
          {data ? (
            <p className="muted">
              <Trans i18nKey="damaged.leftAsIs" values={{ file: data.problem.file }} components={[<code dir="ltr" />]} />
            </p>
          ) : null}
          <button type="button" className="button button--small" onClick={() => select(null)}>
            {t('damaged.close')}
          </button>
        </div>
        <ErrorLine message={salvage.isError ? errorMessage(salvage.error, t('damaged.readFailed')) : null} />
        {data?.chat.rawText !== undefined ? (
          <pre className="damaged-chat__raw" aria-label={t('damaged.fileText')}>
            {data.chat.rawText}
          </pre>
        ) : null}
        {data && data.chat.messages.length === 0 && data.chat.rawText === undefined ? <p className="muted">{t('damaged.noMessage')}</p> : null}
        <ol className="damaged-chat__messages" aria-label={t('damaged.messages')}>
          {data?.chat.messages.map((message, index) => (
            <li key={index} className={`damaged-chat__message damaged-chat__message--${message.role}`}>
              <span className="damaged-chat__role">{t(`damaged.role.${message.role}`)}</span>
              {message.text ? <p className="damaged-chat__text">{message.text}</p> : null}
              {message.toolCalls.map((call, at) => (
                <p key={at} className="muted damaged-chat__call">
                  <Trans i18nKey="damaged.toolCall" values={{ name: call.name, status: call.status.replace('_', ' ') }} components={[<code />]} />
                </p>
              ))}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
