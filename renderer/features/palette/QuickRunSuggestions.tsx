import { Trans, useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { ToolView } from '../../../shared/schemas/tool.js';
import { useApi } from '../../api/context.js';
import { isLatest, VersionBadge } from '../../components/VersionBadge.js';
import { ToolOption } from '../../components/ToolOption.js';

/** Enabled tools that can run, best matches of what was typed first. */
export function useQuickRunSuggestions(slug: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: ['quick-run', slug],
    // One row a tool: "+slug" runs its latest version, so an older one is not offered beside it.
    queryFn: async () =>
      (await api.tools.search({ q: slug ?? '', pageSize: 8 })).tools.filter(
        (tool): tool is ToolView => tool.status === 'valid' && tool.isEnabled && tool.available && isLatest(tool),
      ),
    enabled: slug !== null,
    placeholderData: (previous) => previous,
  });
}

/**
 * The list under a "+" typed at the start of the message box: it filters as
 * the slug is typed and never takes the text away. The box keeps focus and
 * drives it (arrows, Tab or Enter to complete, Esc to type a plain "+").
 */
export function QuickRunSuggestions({ id, tools, active, onChoose }: { id: string; tools: ToolView[]; active: number; onChoose: (tool: ToolView) => void }) {
  const { t } = useTranslation();
  return (
    <div className="quick-suggest">
      {tools.length ? (
        <ul id={id} role="listbox" aria-label={t('quickRun.list')} className="quick-suggest__list">
          {tools.map((tool, index) => (
            <ToolOption key={tool.toolID} id={`${id}-${index}`} active={index === active} name={tool.displayName} onChoose={() => onChoose(tool)}>
              <code className="palette__slug">{`+${tool.slug}`}</code>
              <VersionBadge tool={tool} />
              {tool.description ? <span className="palette__description muted" dir="auto">{tool.description}</span> : null}
            </ToolOption>
          ))}
        </ul>
      ) : (
        <p id={id} className="muted quick-suggest__empty">
          {t('quickRun.empty')}
        </p>
      )}
      <p className="muted quick-suggest__keys">
        <Trans i18nKey="quickRun.keys" components={[<kbd className="kbd" />, <kbd className="kbd" />, <kbd className="kbd" />, <kbd className="kbd" />]} />
      </p>
    </div>
  );
}
