import { useTranslation } from 'react-i18next';
import type { ToolDiscovery } from '../../../shared/schemas/chat.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { usePatchSettings, useSettings } from '../../queries/tools.js';

const CHOICES = [
  { value: 'auto', label: 'discovery.auto', hint: 'discovery.autoHint' },
  { value: 'search', label: 'discovery.search', hint: 'discovery.searchHint' },
  { value: 'all', label: 'discovery.all', hint: 'discovery.allHint' },
] as const satisfies readonly { value: ToolDiscovery; label: string; hint: string }[];

/** How chats that do not say otherwise offer their tools to the model. */
export function ToolDiscoverySection() {
  const { t } = useTranslation();
  const settings = useSettings();
  const patch = usePatchSettings();
  const current = settings.data?.toolDiscovery ?? 'auto';
  return (
    <section className="card" aria-labelledby="tool-discovery-title">
      <h2 id="tool-discovery-title" className="card__title">
        {t('discovery.title')}
      </h2>
      <p className="muted">{t('discovery.description')}</p>
      <fieldset className="segmented" disabled={!settings.data || patch.isPending}>
        <legend className="field-label">{t('discovery.legend')}</legend>
        {CHOICES.map((choice) => (
          <label key={choice.value} className="segmented__option" title={t(choice.hint)}>
            <input type="radio" name="tool-discovery" value={choice.value} checked={current === choice.value} onChange={() => patch.mutate({ toolDiscovery: choice.value })} />
            <span>{t(choice.label)}</span>
          </label>
        ))}
      </fieldset>
      <p className="muted">{t('discovery.hintSentence', { hint: t(CHOICES.find((choice) => choice.value === current)?.hint ?? 'discovery.autoHint') })}</p>
      <ErrorLine message={patch.isError ? errorMessage(patch.error, t('common.saveFailed')) : null} />
    </section>
  );
}
