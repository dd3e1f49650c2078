import { useTranslation } from 'react-i18next';
import { appKey, useAppGrants } from './app-grants.js';

const FEATURE_KEYS = {
  camera: 'apps.feature.camera',
  microphone: 'apps.feature.microphone',
  geolocation: 'apps.feature.geolocation',
  'clipboard-write': 'apps.feature.clipboardWrite',
} as const;

/** The device features an app may use now: what it declared, once the person allowed it; none before. */
export function useGrantedFeatures(bundleID: string, uri: string | undefined, declared: readonly string[] | undefined): readonly string[] {
  const answer = useAppGrants((state) => (uri ? state.answers[appKey(bundleID, uri)] : undefined));
  return answer === 'allowed' ? (declared ?? []) : [];
}

/**
 * The person's say on the device features an app declared (camera,
 * microphone, location, clipboard): asked in the app's card, with the app
 * already running without them; allowing starts it again with them.
 */
export function AppPermissions({ bundleID, uri, declared }: { bundleID: string; uri: string; declared: readonly string[] }) {
  const { t, i18n } = useTranslation();
  const key = appKey(bundleID, uri);
  const answer = useAppGrants((state) => state.answers[key]);
  const setAnswer = useAppGrants((state) => state.answer);
  const named = declared.flatMap((feature) => (feature in FEATURE_KEYS ? [t(FEATURE_KEYS[feature as keyof typeof FEATURE_KEYS])] : []));
  if (named.length === 0) return null;
  const features = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(named);
  if (answer) {
    return <p className="muted mcp-app__note">{t(answer === 'allowed' ? 'apps.permissions.allowed' : 'apps.permissions.refused', { features })}</p>;
  }
  return (
    <div className="mcp-app__permissions" role="group" aria-label={t('apps.permissions.label')}>
      <span>{t('apps.permissions.ask', { features })}</span>
      <button type="button" className="button button--small" onClick={() => setAnswer(key, 'allowed')}>
        {t('apps.permissions.allow')}
      </button>
      <button type="button" className="button button--small button--ghost" onClick={() => setAnswer(key, 'refused')}>
        {t('apps.permissions.refuse')}
      </button>
    </div>
  );
}
