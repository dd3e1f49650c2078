import { useTranslation } from 'react-i18next';
import type { InstallPlan } from '../../../shared/schemas/mcp-install.js';

/**
 * Exactly what would be added, before anything runs: the command and each
 * argument (as the program gets them, no shell), or the address; the names
 * of the environment variables or headers; the hosts; the secrets asked for.
 */
export function InstallPlanView({ plan }: { plan: InstallPlan }) {
  const { t } = useTranslation();
  const { config } = plan;
  return (
    <section className="install-plan" aria-label={t('install.planLabel', { name: plan.serverName })}>
      <h3 className="install-plan__name">
        <bdi>{plan.serverName}</bdi>
        {plan.replaces ? <span className="badge">{t('install.replaces')}</span> : null}
      </h3>
      <dl className="install-plan__facts">
        {'command' in config ? (
          <>
            <dt>{t('install.command')}</dt>
            <dd>
              <code className="install-plan__command" dir="ltr">
                {[config.command, ...(config.args ?? [])].map((part, index) => (
                  <span key={index} className="install-plan__arg">
                    {part}
                  </span>
                ))}
              </code>
            </dd>
            {config.cwd ? (
              <>
                <dt>{t('install.folder')}</dt>
                <dd>
                  <code dir="ltr">{config.cwd}</code>
                </dd>
              </>
            ) : null}
          </>
        ) : (
          <>
            <dt>{t('install.address')}</dt>
            <dd>
              <code dir="ltr">{config.url}</code>
            </dd>
            <dt>{t('install.hosts')}</dt>
            <dd>{plan.hosts.join(', ')}</dd>
          </>
        )}
        <dt>{'command' in config ? t('install.environment') : t('install.headers')}</dt>
        <dd>{plan.settingNames.length ? <code dir="ltr">{plan.settingNames.join(', ')}</code> : t('install.none')}</dd>
        {plan.secrets.length ? (
          <>
            <dt>{t('install.secrets')}</dt>
            <dd>
              <code dir="ltr">{plan.secrets.join(', ')}</code>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
