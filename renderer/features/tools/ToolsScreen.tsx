import { EmptyState } from '../../components/EmptyState.js';
import { BundleIcon } from '../../components/icons.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';

export function ToolsScreen() {
  return (
    <section className="screen" aria-labelledby="tools-title">
      <ScreenHeader id="tools-title" title="Tools" subtitle="Bundles, tool definitions and the live HTTP tester." />
      <EmptyState icon={<BundleIcon size={40} />} title="Your tools will live here">
        <p>
          Bundles group tools under one switch. Define HTTP tools from a form or edit their JSON directly, describe
          their arguments with JSON Schema, and try every call in the live tester before a model ever makes it.
        </p>
        <p className="empty-state__hint">Tools are plain JSON files in your data folder, so they diff well in git.</p>
      </EmptyState>
    </section>
  );
}
