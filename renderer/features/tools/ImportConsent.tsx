import { Trans, useTranslation } from 'react-i18next';

/** A secret an import's tools name, as its preview says. */
export interface WantedSecret {
  name: string;
  description?: string;
  isSet: boolean;
  ownName?: string;
}

/** What the person chose in an import's preview: secrets of theirs the tools may use, hosts they may reach. */
export interface Consent {
  useSecrets: ReadonlySet<string>;
  allowHosts: ReadonlySet<string>;
}

export const NO_CONSENT: Consent = { useSecrets: new Set(), allowHosts: new Set() };

/** The name the imported tools will use: the person's own when they let it, else the bundle's. */
export function effectiveSecretName(secret: WantedSecret, consent: Consent): string {
  return secret.isSet && secret.ownName && !consent.useSecrets.has(secret.name) ? secret.ownName : secret.name;
}

/** Secrets that will still need a value once imported. */
export function secretsToSet(secrets: readonly WantedSecret[], consent: Consent): string[] {
  return secrets.filter((secret) => !secret.isSet || effectiveSecretName(secret, consent) !== secret.name).map((secret) => effectiveSecretName(secret, consent));
}

function toggled(set: ReadonlySet<string>, item: string, on: boolean): Set<string> {
  const next = new Set(set);
  if (on) next.add(item);
  else next.delete(item);
  return next;
}

/**
 * What an import would reach, for the person to confirm: a secret they already
 * have (set for something else, perhaps) is used only when they tick it, else
 * the bundle gets a name of its own; a host is allowed only when ticked.
 */
export function ImportConsent({ secrets, hosts, consent, onChange }: { secrets: readonly WantedSecret[]; hosts: readonly string[]; consent: Consent; onChange: (next: Consent) => void }) {
  const { t } = useTranslation();
  const existing = secrets.filter((secret) => secret.isSet && secret.ownName);
  const others = secrets.filter((secret) => !(secret.isSet && secret.ownName));
  return (
    <div className="import-consent" role="group" aria-label={t('consent.group')}>
      {others.length ? (
        <p className="field__hint">
          {`${t('consent.secretsItUses')} `}
          {others.map((secret, index) => (
            <span key={secret.name} title={secret.description}>
              {index > 0 ? ', ' : ''}
              <code>{secret.name}</code> {secret.isSet ? t('consent.set') : t('consent.notSet')}
            </span>
          ))}
        </p>
      ) : null}
      {existing.map((secret) => (
        <div key={secret.name} className="import-consent__choice">
          <label className="checkbox">
            <input type="checkbox" checked={consent.useSecrets.has(secret.name)} onChange={(event) => onChange({ ...consent, useSecrets: toggled(consent.useSecrets, secret.name, event.target.checked) })} />
            <Trans i18nKey="consent.useMine" values={{ name: secret.name }} components={[<code />]} />
          </label>
          <p className="field__hint">
            {`${t('consent.alreadyHave')} `}
            {consent.useSecrets.has(secret.name) ? t('consent.willSend') : <Trans i18nKey="consent.ownName" values={{ name: secret.ownName }} components={[<code />]} />}
          </p>
        </div>
      ))}
      {hosts.map((host) => (
        <div key={host} className="import-consent__choice">
          <label className="checkbox">
            <input type="checkbox" checked={consent.allowHosts.has(host)} onChange={(event) => onChange({ ...consent, allowHosts: toggled(consent.allowHosts, host, event.target.checked) })} />
            <Trans i18nKey="consent.allowHost" values={{ host }} components={[<code dir="ltr" />]} />
          </label>
          {consent.allowHosts.has(host) ? null : <p className="field__hint">{t('consent.hostUnticked')}</p>}
        </div>
      ))}
    </div>
  );
}
