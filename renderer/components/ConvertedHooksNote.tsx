import { useTranslation } from 'react-i18next';
import type { ConvertedHooks } from './hook-text.js';

/** Says another app's hook file was read into Claude Code's shape, to be read before a second Save runs it. */
export function ConvertedHooksNote({ converted, saveLabel }: { converted: ConvertedHooks; saveLabel: string }) {
  const { t } = useTranslation();
  return (
    <div className="callout callout--note" role="status">
      <p>{t('hooks.converted', { app: t(`hooks.app.${converted.kind}`), save: saveLabel })}</p>
      {converted.skipped.length > 0 && <p>{t('hooks.skipped', { events: converted.skipped.join(', ') })}</p>}
    </div>
  );
}
