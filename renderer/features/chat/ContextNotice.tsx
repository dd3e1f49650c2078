import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
import type { Chat } from '../../../shared/schemas/chat.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { useChatContext, useDropOldResults, useUpdateChat } from '../../queries/chats.js';
import { useCapabilities } from '../../queries/providers.js';

/** Warn from this share of the model's input size on: the estimate is rough, and the answer needs room too. */
const WARN_AT = 0.8;

/** "~1,234 tokens", in the window's language: how the chat's notices and panels say a size. */
export const tokensLabel = (tokens: number) => i18n.t('context.tokens', { count: tokens });
const count = tokensLabel;

/**
 * Said before sending, not after the server refuses: a model that refused
 * tools while the chat offers them, and a chat that nears or passes what
 * its model takes, with a way out (drop old tool results, turn tools off).
 */
export function ContextNotice({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
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
          {t('context.refused', { model: chat.model })}{' '}
          <button type="button" className="button button--small" disabled={update.isPending} onClick={() => update.mutate({ chatId: chat.id, tools: { ...chat.tools, mode: 'none' } })}>
            {t('context.turnToolsOff')}
          </button>
        </p>
      ) : null}
      {tight && budget && limit !== undefined ? (
        <p>
          {t(total > limit ? 'context.longer' : 'context.nears', { model: chat.model, total: count(total), messages: count(budget.messageTokens), tools: count(budget.toolTokens), limit })}{' '}
          {budget.droppable.results > 0 ? (
            <button type="button" className="button button--small" disabled={drop.isPending} onClick={() => drop.mutate({ chatId: chat.id })}>
              {t('context.drop', { count: budget.droppable.results, tokens: count(budget.droppable.tokens) })}
            </button>
          ) : (
            t('context.startNew')
          )}
        </p>
      ) : null}
      <ErrorLine message={drop.isError ? errorMessage(drop.error, t('context.dropFailed')) : update.isError ? errorMessage(update.error, t('context.changeFailed')) : null} />
    </div>
  );
}
