import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/context.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { useChatUi } from '../../state/chat-ui.js';

const ROLE_LABEL = { user: 'You', assistant: 'Model', 'tool-run': 'You ran a tool', unknown: 'Unreadable message' } as const;

/**
 * A chat whose file is not a valid chat, shown read-only: the problem and
 * where the file is, then whatever of its messages could be read, so a
 * person is never locked out of what they wrote.
 */
export function DamagedChat({ chatId }: { chatId: string }) {
  const api = useApi();
  const select = useChatUi((state) => state.select);
  const salvage = useQuery({ queryKey: ['chats', 'salvage', chatId], queryFn: () => api.chats.salvage({ chatId }), retry: false });
  const data = salvage.data;
  return (
    <div className="chat-pane">
      <header className="chat-header">
        <h2 className="chat-header__title">{data?.chat.title ?? 'Chat that cannot be opened'}</h2>
        <span className="badge badge--quiet">Read-only</span>
      </header>
      <div className="damaged-chat">
        <div className="callout callout--warn" role="status">
          <p>
            <strong>This chat’s file has a problem, so it opens read-only.</strong> {data ? data.problem.reason : null}
          </p>
          {data ? (
            <p className="muted">
              The file is left as it is: <code>{data.problem.file}</code>. Fix it in an editor, or move it out of the chats folder.
            </p>
          ) : null}
          <button type="button" className="button button--small" onClick={() => select(null)}>
            Close
          </button>
        </div>
        <ErrorLine message={salvage.isError ? errorMessage(salvage.error, 'Could not read the file.') : null} />
        {data?.chat.rawText !== undefined ? (
          <pre className="damaged-chat__raw" aria-label="The file’s text">
            {data.chat.rawText}
          </pre>
        ) : null}
        {data && data.chat.messages.length === 0 && data.chat.rawText === undefined ? <p className="muted">No message could be read from the file.</p> : null}
        <ol className="damaged-chat__messages" aria-label="Messages (read-only)">
          {data?.chat.messages.map((message, index) => (
            <li key={index} className={`damaged-chat__message damaged-chat__message--${message.role}`}>
              <span className="damaged-chat__role">{ROLE_LABEL[message.role]}</span>
              {message.text ? <p className="damaged-chat__text">{message.text}</p> : null}
              {message.toolCalls.map((call, at) => (
                <p key={at} className="muted damaged-chat__call">
                  Tool call <code>{call.name}</code> · {call.status.replace('_', ' ')}
                </p>
              ))}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
