import { useTranslation } from 'react-i18next';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Modal } from '../../components/Modal.js';
import { useLinkInstall, useLinkPreview } from '../../queries/install.js';
import { useChatUi } from '../../state/chat-ui.js';
import { useToolsUi } from '../../state/tools-ui.js';
import { useUiStore } from '../../state/ui.js';
import { useNewChat } from '../chat/ChatList.js';
import { InstallPlanView } from './InstallPlanView.js';

/**
 * A toolbelt:// link, opened from a web page, another app or the address
 * bar: what it would do, as the core reads it, and nothing until the person
 * says so. An install link adds its servers; a chat link starts a chat with
 * its text in the message box, not sent.
 */
export function LinkDialog({ url, onClose }: { url: string; onClose: () => void }) {
  const { t } = useTranslation();
  const preview = useLinkPreview(url);
  const install = useLinkInstall();
  const newChat = useNewChat();
  const prefill = useChatUi((state) => state.prefillComposer);
  const goTo = useUiStore((state) => state.goTo);
  const selectBundle = useToolsUi((state) => state.selectBundle);
  const linkPreview = preview.data;
  const confirm = async () => {
    if (linkPreview?.kind === 'chat-new') {
      // Closed first, so that focus goes to the message box the text lands in, not back to what the dialog had.
      onClose();
      goTo('chat');
      await newChat.startAndWait();
      prefill(linkPreview.text);
      return;
    }
    install.mutate(
      { url },
      {
        onSuccess: ({ servers }) => {
          onClose();
          goTo('tools');
          if (servers[0]) selectBundle(servers[0].bundleID);
        },
      },
    );
  };
  const title = linkPreview?.kind === 'chat-new' ? t('links.chatTitle') : t('links.installTitle');
  return (
    <Modal title={title} wide onDismiss={onClose}>
      <div className="install-dialog">
        {preview.isPending ? (
          <p role="status" className="muted">
            {t('links.reading')}
          </p>
        ) : null}
        <ErrorLine message={preview.isError ? errorMessage(preview.error) : null} />
        {linkPreview?.kind === 'mcp-install' ? (
          <>
            <p>{t('links.installLead', { count: linkPreview.plans.length })}</p>
            {linkPreview.plans.map((plan) => (
              <InstallPlanView key={plan.serverName} plan={plan} />
            ))}
          </>
        ) : null}
        {linkPreview?.kind === 'chat-new' ? (
          <>
            <p>{t('links.chatLead')}</p>
            <blockquote className="links__text" dir="auto">
              {linkPreview.text || t('links.emptyText')}
            </blockquote>
          </>
        ) : null}
        <ErrorLine message={install.isError ? errorMessage(install.error) : linkPreview?.kind === 'chat-new' && newChat.known && !newChat.ready ? t('chatList.noProvider') : null} />
        <div className="arg-form__actions">
          {linkPreview ? (
            <button type="button" className="button button--primary" autoFocus disabled={install.isPending || (linkPreview.kind === 'chat-new' && !newChat.ready)} onClick={() => void confirm()}>
              {linkPreview.kind === 'chat-new' ? t('links.startChat') : install.isPending ? t('registry.adding') : t('links.add', { count: linkPreview.plans.length })}
            </button>
          ) : null}
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
