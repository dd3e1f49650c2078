import { useTranslation } from 'react-i18next';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { BundleList } from './BundleList.js';
import { ToolDetail } from './ToolDetail.js';
import { ToolList } from './ToolList.js';

export function ToolsScreen() {
  const { t } = useTranslation();
  return (
    <section className="screen screen--fill" aria-labelledby="tools-screen-title">
      <ScreenHeader id="tools-screen-title" title={t('screens.tools')} subtitle={t('toolsScreen.subtitle')} />
      <div className="tools-layout">
        <BundleList />
        <ToolList />
        <ToolDetail />
      </div>
    </section>
  );
}
