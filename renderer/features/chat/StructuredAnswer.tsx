import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton.js';
import { JsonTree } from '../../components/JsonTree.js';

/** A final answer given as JSON that matched the chat's schema: a tree to read, the JSON to copy. */
export function StructuredAnswer({ value }: { value: unknown }) {
  const { t } = useTranslation();
  return (
    <section className="structured-answer" aria-label={t('chat.jsonAnswer')}>
      <header className="structured-answer__header">
        <span className="badge badge--ok">{t('chat.jsonAnswer')}</span>
        <span className="muted">{t('chat.matchesSchema')}</span>
        <CopyButton text={JSON.stringify(value, null, 2)} label={t('chat.copyJson')} withText />
      </header>
      <JsonTree value={value} />
    </section>
  );
}
