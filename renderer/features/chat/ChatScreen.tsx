import { HookRuns } from '../../components/HookRuns.js';
import { useFileDrop } from './files/attach-files.js';
import { Trans, useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { pendingOf } from '../../../shared/chat/chat-calls.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ChatIcon } from '../../components/icons.js';
import { useChat } from '../../queries/chats.js';
import { useProviders } from '../../queries/providers.js';
import { useChatUi } from '../../state/chat-ui.js';
import { useUiStore } from '../../state/ui.js';
import { ToolPalette } from '../palette/ToolPalette.js';
import { ApprovalDialog } from './ApprovalDialog.js';
import { AskUserDialog } from './AskUserDialog.js';
import { ChatHeader } from './ChatHeader.js';
import { ChatList, useNewChat } from './ChatList.js';
import { warmMarkdownWhenIdle } from './markdown-warmup.js';
import { Composer } from './Composer.js';
import { ContextNotice } from './ContextNotice.js';
import { MessageList } from './MessageList.js';
import { RunNotice } from './RunNotice.js';
import { ErrorLine } from '../../components/ErrorLine.js';
import { ToolbeltError } from '../../../shared/errors.js';
import { DamagedChat } from './DamagedChat.js';

export function ChatScreen() {
  const { t } = useTranslation();
  const selected = useChatUi((state) => state.selectedChatId);
  useEffect(warmMarkdownWhenIdle, []);
  return (
    <section className="screen screen--fill" aria-label={t('screens.chat')}>
      <h1 className="visually-hidden" tabIndex={-1} data-screen-heading>
        {t('screens.chat')}
      </h1>
      <div className="chat-layout">
        <ChatList />
        {selected ? <Conversation chatId={selected} /> : <NoChatOpen />}
      </div>
    </section>
  );
}

function NoChatOpen() {
  const providers = useProviders();
  const openSettings = useUiStore((state) => state.openSettings);
  const newChat = useNewChat();
  const { t } = useTranslation();
  const hasProvider = (providers.data?.length ?? 0) > 0;
  return (
    <div className="chat-pane chat-pane--empty">
      <EmptyState
        icon={<ChatIcon size={40} />}
        title={hasProvider || providers.isPending ? t('chat.startTitle') : t('chat.noProviderTitle')}
        actions={
          hasProvider ? (
            <button type="button" className="button button--primary" onClick={newChat.start} disabled={newChat.pending}>
              {t('chat.newChat')}
            </button>
          ) : (
            <button type="button" className="button button--primary" onClick={() => openSettings('providers', { addProvider: true })}>
              {t('chat.addProvider')}
            </button>
          )
        }
      >
        {hasProvider ? (
          <p>
            <Trans i18nKey="chat.startBody" components={[<kbd className="kbd" />]} />
          </p>
        ) : (
          <p>{t('chat.noProviderBody')}</p>
        )}
        <ErrorLine message={newChat.problem} />
      </EmptyState>
    </div>
  );
}

function Conversation({ chatId }: { chatId: string }) {
  const chat = useChat(chatId);
  const select = useChatUi((state) => state.select);
  const paletteOpen = useChatUi((state) => state.paletteOpen);
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  const drop = useFileDrop(chatId, setDragging);
  if (chat.isError && chat.error instanceof ToolbeltError && chat.error.code === 'file_invalid') return <DamagedChat chatId={chatId} />;
  if (chat.isError) {
    return (
      <div className="chat-pane chat-pane--empty">
        <EmptyState icon={<ChatIcon size={40} />} title={t('chat.cannotOpen')} actions={<button type="button" className="button" onClick={() => select(null)}>{t('chat.closeIt')}</button>}>
          <p>{chat.error.message}</p>
        </EmptyState>
      </div>
    );
  }
  if (!chat.data) return <div className="chat-pane" aria-busy="true" />;
  const current = chat.data;
  // Derived from the calls themselves, so it is right after every streamed update.
  const pending = pendingOf(current);
  const dialogItem = pending[0];
  const approvals = pending.filter((item) => item.kind === 'approval');
  return (
    <div className={`chat-pane${dragging ? ' chat-pane--dropping' : ''}`} {...drop}>
      {dragging ? (
        <div className="chat-pane__drop" aria-hidden="true">
          {t('files.dropHere')}
        </div>
      ) : null}
      <ChatHeader chat={current} />
      {current.messages.length === 0 ? (
        <div className="chat-pane__welcome muted">
          <p>
            <Trans i18nKey="chat.welcome" components={[<kbd className="kbd" />]} />
          </p>
          {current.startHooks?.length ? <HookRuns runs={current.startHooks} /> : null}
        </div>
      ) : (
        <MessageList chat={current} />
      )}
      <RunNotice chat={current} />
      <ContextNotice chat={current} />
      <Composer chat={current} />
      {paletteOpen ? <ToolPalette chatId={current.id} /> : null}
      {!paletteOpen && dialogItem?.kind === 'approval' ? <ApprovalDialog key={dialogItem.callId} chatId={current.id} item={dialogItem} position={{ index: 0, count: approvals.length }} /> : null}
      {!paletteOpen && dialogItem?.kind === 'question' ? <AskUserDialog key={dialogItem.callId} chatId={current.id} item={dialogItem} /> : null}
    </div>
  );
}
