import type { Chat } from '../../../shared/schemas/chat.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { useCapabilities, useChatContext, useDropOldResults, useUpdateChat } from '../../queries/chats.js';

/** Warn from this share of the model's input size on: the estimate is rough, and the answer needs room too. */
const WARN_AT = 0.8;

const count = (tokens: number) => `~${tokens.toLocaleString('en')} tokens`;

/**
 * Said before sending, not after the server refuses: a model that refused
 * tools while the chat offers them, and a chat that nears or passes what
 * its model takes, with a way out (drop old tool results, turn tools off).
 */
export function ContextNotice({ chat }: { chat: Chat }) {
  const capabilities = useCapabilities(chat.providerId, chat.model, chat.lastRun?.at ?? '');
  const context = useChatContext(chat);
  const drop = useDropOldResults();
  const update = useUpdateChat();
  if (chat.status === 'running') return null;
  const toolsOn = chat.tools.mode !== 'none' && chat.tools.selected.some((entry) => !entry.denied);
  const refused = toolsOn && capabilities.data?.tools === 'refused';
  const budget = context.data;
  const total = budget ? budget.messageTokens + budget.toolTokens : 0;
  const limit = budget?.contextTokens;
  const tight = limit !== undefined && total >= limit * WARN_AT;
  if (!refused && !tight) return null;
  return (
    <div className="context-notice callout callout--warn" role="status">
      {refused ? (
        <p>
          {chat.model} refused tools before, so they will not be sent: turn tools off for this chat, or pick another model.{' '}
          <button type="button" className="button button--small" disabled={update.isPending} onClick={() => update.mutate({ chatId: chat.id, tools: { ...chat.tools, mode: 'none' } })}>
            Turn tools off
          </button>
        </p>
      ) : null}
      {tight && budget && limit !== undefined ? (
        <p>
          {total > limit ? 'This chat is longer than ' : 'This chat nears what '}
          {chat.model} takes: {count(total)} ({count(budget.messageTokens)} of messages, {count(budget.toolTokens)} of tool definitions) of {limit.toLocaleString('en')}.{' '}
          {budget.droppable.results > 0 ? (
            <button type="button" className="button button--small" disabled={drop.isPending} onClick={() => drop.mutate({ chatId: chat.id })}>
              Drop {budget.droppable.results} old tool result{budget.droppable.results === 1 ? '' : 's'} ({count(budget.droppable.tokens)})
            </button>
          ) : (
            'Start a new chat, or turn off tools it does not need.'
          )}
        </p>
      ) : null}
      <ErrorLine message={drop.isError ? errorMessage(drop.error, 'Could not drop the old results.') : update.isError ? errorMessage(update.error, 'Could not change the tools.') : null} />
    </div>
  );
}
