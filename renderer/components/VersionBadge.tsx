import { useTranslation } from 'react-i18next';

/** Which version a row is, where its bundle holds more than one of the tool (v1 and v2 would look alike otherwise). */
export function VersionBadge({ tool }: { tool: Versioned }) {
  const { t } = useTranslation();
  if (!tool.versions) return null;
  const latest = isLatest(tool);
  return (
    <span className={`badge ${latest ? '' : 'badge--quiet'} version-badge`}>
      <code dir="ltr">{tool.version}</code> {latest ? t('versions.latest') : t('versions.older')}
    </span>
  );
}

/** Of the tools found by one slug, the one to run when none is named: the latest version (what whole bundles offer). */
export function latestOf<T extends Versioned>(tools: T[]): T | undefined {
  return tools.find(isLatest) ?? tools[0];
}

type Versioned = { version: string; versions?: { version: string }[] };

/** The latest version of its tool (or its only one). */
export function isLatest(tool: Versioned): boolean {
  return !tool.versions || tool.versions.at(-1)?.version === tool.version;
}
