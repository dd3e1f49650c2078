import { CopyButton } from '../../components/CopyButton.js';
import { useAppInfo } from '../../queries/app.js';

export function AboutSection() {
  const info = useAppInfo();
  return (
    <section className="card" aria-labelledby="about-title">
      <h2 id="about-title" className="card__title">
        About
      </h2>
      {info.isPending ? (
        <p className="muted">Asking the core…</p>
      ) : info.isError ? (
        <p className="error-text" role="alert">
          Could not read app information: {info.error.message}
        </p>
      ) : (
        <dl className="facts">
          <dt>Version</dt>
          <dd data-testid="app-version">
            {info.data.name} {info.data.version}
          </dd>
          <dt>Data folder</dt>
          <dd className="facts__with-action">
            <code data-testid="data-dir">{info.data.dataDir}</code>
            <CopyButton text={info.data.dataDir} label="Copy data folder path" />
          </dd>
          <dt>Host</dt>
          <dd>{info.data.hostKind === 'electron' ? 'Desktop app (Electron)' : 'Browser host'}</dd>
          <dt>Runtime</dt>
          <dd>
            Node {info.data.runtime.node}
            {info.data.runtime.electron ? ` · Electron ${info.data.runtime.electron}` : ''} · {info.data.platform}
          </dd>
        </dl>
      )}
    </section>
  );
}
