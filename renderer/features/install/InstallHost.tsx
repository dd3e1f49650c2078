import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCoreTransport } from '../../api/context.js';
import { Modal } from '../../components/Modal.js';
import { useInstallRequests } from '../../state/install-requests.js';
import { LinkDialog } from './LinkDialog.js';
import { McpbDialog } from './McpbDialog.js';
import { RegistryDialog } from './RegistryDialog.js';

const isBundle = (file: File) => /\.(mcpb|dxt)$/i.test(file.name);

/**
 * Where what would add an MCP server is shown, whatever screen is open: a
 * link the app was opened with (the desktop app's event, or the browser
 * host's `/link?to=…` page), an `.mcpb` file dropped on the window or opened
 * with the app, "Find servers". One at a time; nothing happens until the
 * person confirms in it.
 */
export function InstallHost() {
  const request = useInstallRequests((state) => state.request);
  const open = useInstallRequests((state) => state.open);
  const close = useInstallRequests((state) => state.close);
  const transport = useCoreTransport();

  useEffect(
    () =>
      transport.subscribe((event) => {
        if (event.type !== 'app.opened') return;
        if (event.link) open({ kind: 'link', url: event.link });
        else if (event.mcpbPreview) open({ kind: 'mcpb', preview: event.mcpbPreview });
        else if (event.problem) open({ kind: 'problem', message: event.problem.message });
      }),
    [transport, open],
  );

  // The browser host takes links as a page: /link?to=toolbelt://…; the address goes back to the app's own.
  useEffect(() => {
    if (window.location.pathname !== '/link') return;
    const link = new URLSearchParams(window.location.search).get('to');
    history.replaceState(null, '', '/');
    if (link) open({ kind: 'link', url: link });
  }, [open]);

  // A bundle dropped anywhere on the window opens here, before the chat's own drop would attach it as a file.
  useEffect(() => {
    const bundleOf = (event: DragEvent) => [...(event.dataTransfer?.files ?? [])].find(isBundle);
    const onDrop = (event: DragEvent) => {
      const bundle = bundleOf(event);
      if (!bundle) return;
      event.preventDefault();
      event.stopPropagation();
      open({ kind: 'mcpb', file: bundle });
    };
    window.addEventListener('drop', onDrop, true);
    return () => window.removeEventListener('drop', onDrop, true);
  }, [open]);

  if (!request) return null;
  if (request.kind === 'link') return <LinkDialog key={request.url} url={request.url} onClose={close} />;
  if (request.kind === 'registry') return <RegistryDialog onClose={close} />;
  if (request.kind === 'mcpb') return <McpbDialog key={request.preview?.previewId ?? request.file?.name ?? 'pick'} file={request.file} preview={request.preview} onClose={close} />;
  return <ProblemDialog message={request.message} onClose={close} />;
}

function ProblemDialog({ message, onClose }: { message: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal title={t('install.problemTitle')} onDismiss={onClose}>
      <p role="alert">{message}</p>
      <div className="arg-form__actions">
        <button type="button" className="button button--primary" autoFocus onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}
