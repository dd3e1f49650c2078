import { useTranslation } from 'react-i18next';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { useSignIn, useSignInState, useSignOut, type SignInTarget } from '../../queries/oauth.js';

/**
 * A connection that signs in in the browser (OAuth 2 authorization code):
 * whether the person is signed in, Sign in (opens the provider's page) and
 * Sign out. Shown under the bundle, or on a tool that has its own.
 */
export function SignInStrip({ target, name }: { target: SignInTarget; name: string }) {
  const { t, i18n } = useTranslation();
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
    <div className={`mcp-status mcp-status--${state === 'signed-in' ? 'connected' : state === 'failed' ? 'failed' : 'sign-in'}`} role="group" aria-label={t('signIn.group', { name })}>
      <span className="list__meta">
        {`${t('signIn.kind')} · `}
        <span className="mcp-status__state">
          {state === 'signed-in' ? t('signIn.signedIn') : state === 'waiting' ? t('signIn.waiting') : state === 'failed' ? t('signIn.failed') : state === 'signed-out' ? t('signIn.signedOut') : '…'}
        </span>
        {state === 'signed-in' && view.data?.refreshable ? t('signIn.renews') : ''}
        {state === 'signed-in' && !view.data?.refreshable && view.data?.expiresAt ? t('signIn.until', { when: new Date(view.data.expiresAt).toLocaleString(i18n.language) }) : ''}
      </span>
      {state === 'failed' ? <span className="bundle-problem">{view.data?.error}</span> : null}
      {state === 'signed-out' ? <span className={view.data?.error ? 'warning-text' : 'list__meta'}>{view.data?.error ?? t('signIn.needed')}</span> : null}
      {state === 'waiting' && view.data?.authorizationUrl ? (
        <span className="list__meta">
          {`${t('signIn.finish')} `}
          <a href={view.data.authorizationUrl} target="_blank" rel="noopener noreferrer">
            {t('signIn.openAgain')}
          </a>
        </span>
      ) : null}
      {view.data?.redirectUri && state !== 'signed-in' ? (
        <span className="list__meta">
          {`${t('signIn.redirect')} `}
          <code dir="ltr">{view.data.redirectUri}</code>
        </span>
      ) : null}
      <span className="mcp-status__actions">
        {state !== 'signed-in' ? (
          <button type="button" className="button button--small button--primary" aria-label={t('signIn.signInTo', { name })} disabled={signIn.isPending || view.isPending} onClick={start}>
            {state === 'waiting' || state === 'failed' ? t('signIn.again') : t('signIn.signIn')}
          </button>
        ) : null}
        {state === 'signed-in' ? (
          <button type="button" className="button button--small" aria-label={t('signIn.signOutOf', { name })} disabled={signOut.isPending} onClick={() => signOut.mutate(target)}>
            {t('signIn.signOut')}
          </button>
        ) : null}
      </span>
      <ErrorLine message={failure ? errorMessage(failure, t('signIn.couldNotStart')) : null} />
    </div>
  );
}
