import { useTranslation } from 'react-i18next';
import type { ToolView } from '../../../shared/schemas/tool.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { TrashIcon } from '../../components/icons.js';
import { isLatest } from '../../components/VersionBadge.js';
import { useDeleteTool, usePatchTool, useRestoreTool } from '../../queries/tools.js';
import { useToolsUi } from '../../state/tools-ui.js';

/**
 * A tool's versions, where there is more than one: each one to open, which
 * are off, and from the latest a way to switch the older ones off (retire
 * them) so chats, the palette and other apps use it.
 */
export function ToolVersions({ tool }: { tool: ToolView }) {
  const { t } = useTranslation();
  const selectTool = useToolsUi((state) => state.selectTool);
  const patch = usePatchTool();
  if (!tool.versions) return null;
  const latest = isLatest(tool);
  const olderOn = tool.versions.slice(0, -1).filter((entry) => entry.isEnabled);
  return (
    <div className="tool-versions">
      <span className="field__label">{t('versions.label')}</span>
      <ul className="tool-versions__list">
        {tool.versions.map(({ version, isEnabled }, index) => (
          <li key={version}>
            <button
              type="button"
              className="button button--small button--ghost"
              aria-current={version === tool.version ? 'true' : undefined}
              aria-label={t('versions.open', { version })}
              onClick={() => selectTool({ bundleID: tool.bundleID, slug: tool.slug, version })}
            >
              <code dir="ltr">{version}</code>
              {index === tool.versions!.length - 1 ? ` · ${t('versions.latest')}` : ''}
              {isEnabled ? '' : ` · ${t('versions.off')}`}
            </button>
          </li>
        ))}
      </ul>
      {latest && olderOn.length && !tool.readOnly ? (
        <>
          <button
            type="button"
            className="button button--small"
            disabled={patch.isPending}
            onClick={() => {
              for (const { version } of olderOn) patch.mutate({ bundleID: tool.bundleID, toolSlug: tool.slug, version, isEnabled: false });
            }}
          >
            {t('versions.retire', { count: olderOn.length })}
          </button>
          <p className="field__help">{t('versions.retireHint')}</p>
        </>
      ) : null}
      <ErrorLine message={patch.isError ? errorMessage(patch.error) : null} />
    </div>
  );
}

/** Deletes this tool (or this version of it) at once, with "Undo" offered beside the list of tools. */
export function DeleteToolButton({ tool }: { tool: ToolView }) {
  const { t } = useTranslation();
  const selectTool = useToolsUi((state) => state.selectTool);
  const setDeletedTool = useToolsUi((state) => state.setDeletedTool);
  const setDeleteProblem = useToolsUi((state) => state.setDeleteProblem);
  const remove = useDeleteTool(
    () => {
      // Another version stays: show it (the latest of those left), else nothing.
      const left = (tool.versions ?? []).filter((entry) => entry.version !== tool.version);
      selectTool(left.length ? { bundleID: tool.bundleID, slug: tool.slug, version: left.at(-1)!.version } : null);
    },
    setDeletedTool,
    (error) => {
      setDeletedTool(null);
      setDeleteProblem(errorMessage(error));
      selectTool({ bundleID: tool.bundleID, slug: tool.slug, version: tool.version });
    },
  );
  if (tool.readOnly) return null;
  const label = tool.versions ? t('versions.deleteVersion', { version: tool.version }) : t('versions.deleteTool');
  return (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label={label}
        title={label}
        disabled={remove.isPending}
        onClick={() => remove.mutate(tool)}
      >
        <TrashIcon size={16} />
      </button>
    </>
  );
}

/** "Deleted “Calculator” v1. Undo": the tool is put back as it was, and opened again. */
export function DeletedToolToast() {
  const { t } = useTranslation();
  const deleted = useToolsUi((state) => state.deletedTool);
  const setDeletedTool = useToolsUi((state) => state.setDeletedTool);
  const selectTool = useToolsUi((state) => state.selectTool);
  const restore = useRestoreTool();
  const problem = useToolsUi((state) => state.deleteProblem);
  if (!deleted) return <ErrorLine message={problem} />;
  return (
    <div className="toast" role="status">
      {t('versions.deleted', { name: deleted.displayName, version: deleted.version })}
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={restore.isPending}
        onClick={() =>
          restore.mutate(deleted, {
            onSuccess: () => {
              setDeletedTool(null);
              selectTool({ bundleID: deleted.bundleID, slug: deleted.slug, version: deleted.version });
            },
          })
        }
      >
        {t('versions.undo')}
      </button>
      <ErrorLine message={restore.isError ? errorMessage(restore.error) : null} />
    </div>
  );
}
