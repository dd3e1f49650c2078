import { ScreenHeader } from '../../components/ScreenHeader.js';
import { BundleList } from './BundleList.js';
import { ToolDetail } from './ToolDetail.js';
import { ToolList } from './ToolList.js';

export function ToolsScreen() {
  return (
    <section className="screen screen--fill" aria-labelledby="tools-screen-title">
      <ScreenHeader id="tools-screen-title" title="Tools" subtitle="Bundles, tool definitions and the live tester." />
      <div className="tools-layout">
        <BundleList />
        <ToolList />
        <ToolDetail />
      </div>
    </section>
  );
}
