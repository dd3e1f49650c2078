import { LockIcon } from './components/icons.js';

/** Shown when the page was opened without the host's token. */
export function LockedScreen() {
  return (
    <main className="locked">
      <div className="locked__panel">
        <LockIcon size={40} />
        <h1>This Toolbelt needs its access link</h1>
        <p>
          The browser host only answers pages that carry its token. Open the address it printed when it started — it
          looks like <code>http://127.0.0.1:PORT/#token=…</code>.
        </p>
        <p className="muted">
          Started it with <code>npm start</code> or <code>npm run serve</code>? The line is in that terminal.
        </p>
      </div>
    </main>
  );
}
