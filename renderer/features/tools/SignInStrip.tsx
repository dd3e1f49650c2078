import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { useSignIn, useSignInState, useSignOut, type SignInTarget } from '../../queries/oauth.js';

/**
 * A connection that signs in in the browser (OAuth 2 authorization code):
 * whether the person is signed in, Sign in (opens the provider's page) and
 * Sign out. Shown under the bundle, or on a tool that has its own.
 */
export function SignInStrip({ target, name }: { target: SignInTarget; name: string }) {
  const view = useSignInState(target, true);
  const signIn = useSignIn();
  const signOut = useSignOut();
  const state = view.data?.state;
  const start = () =>
    signIn.mutate(target, {
      // Opens in the system browser (Electron's window-open guard), or a new tab of the browser host.
      onSuccess: (started) => started.authorizationUrl && window.open(started.authorizationUrl, '_blank', 'noopener,noreferrer'),
    });
  const failure = view.error ?? signIn.error ?? signOut.error;
  return (
    <div className={`mcp-status mcp-status--${state === 'signed-in' ? 'connected' : state === 'failed' ? 'failed' : 'sign-in'}`} role="group" aria-label={`Sign-in of ${name}`}>
      <span className="list__meta">
        OAuth 2 ·{' '}
        <span className="mcp-status__state">
          {state === 'signed-in' ? 'signed in' : state === 'waiting' ? 'waiting for the browser…' : state === 'failed' ? 'sign-in failed' : state === 'signed-out' ? 'not signed in' : '…'}
        </span>
        {state === 'signed-in' && view.data?.refreshable ? ' · renews by itself' : ''}
        {state === 'signed-in' && !view.data?.refreshable && view.data?.expiresAt ? ` · until ${new Date(view.data.expiresAt).toLocaleString()}` : ''}
      </span>
      {state === 'failed' ? <span className="bundle-problem">{view.data?.error}</span> : null}
      {state === 'signed-out' ? <span className={view.data?.error ? 'warning-text' : 'list__meta'}>{view.data?.error ?? 'Its tools need you to sign in once; Toolbelt keeps the tokens as secrets and renews them.'}</span> : null}
      {state === 'waiting' && view.data?.authorizationUrl ? (
        <span className="list__meta">
          Finish signing in in your browser.{' '}
          <a href={view.data.authorizationUrl} target="_blank" rel="noopener noreferrer">
            Open the sign-in page again
          </a>
        </span>
      ) : null}
      {view.data?.redirectUri && state !== 'signed-in' ? (
        <span className="list__meta">
          Redirect URL to register with the provider: <code>{view.data.redirectUri}</code>
        </span>
      ) : null}
      <span className="mcp-status__actions">
        {state !== 'signed-in' ? (
          <button type="button" className="button button--small button--primary" aria-label={`Sign in to ${name}`} disabled={signIn.isPending || view.isPending} onClick={start}>
            {state === 'waiting' || state === 'failed' ? 'Sign in again' : 'Sign in'}
          </button>
        ) : null}
        {state === 'signed-in' ? (
          <button type="button" className="button button--small" aria-label={`Sign out of ${name}`} disabled={signOut.isPending} onClick={() => signOut.mutate(target)}>
            Sign out
          </button>
        ) : null}
      </span>
      <ErrorLine message={failure ? errorMessage(failure, 'The sign-in could not start; try again.') : null} />
    </div>
  );
}
