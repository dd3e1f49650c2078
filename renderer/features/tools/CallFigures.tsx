import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ToolView } from '../../../shared/schemas/tool.js';
import { useApi } from '../../api/context.js';

interface Figures {
  calls: number;
  failures: number;
  p50Ms?: number;
  p95Ms?: number;
}

/** A tool's calls over the last day and week, in its definition list: read again whenever its call count moves. */
export function CallFigures({ tool }: { tool: ToolView }) {
  const { t } = useTranslation();
  const api = useApi();
  const figures = useQuery({
    queryKey: ['tools', 'metrics', tool.toolID, tool.usage.callCount],
    queryFn: () => api.tools.metrics({ bundleID: tool.bundleID, toolSlug: tool.slug, version: tool.version }),
    placeholderData: (previous) => previous,
  });
  if (!figures.data) return null;
  const line = (of: Figures) =>
    of.calls === 0
      ? t('callFigures.none')
      : [t('callFigures.calls', { count: of.calls }), t('callFigures.failures', { count: of.failures }), ...(of.p50Ms !== undefined ? [t('callFigures.times', { p50: of.p50Ms, p95: of.p95Ms })] : [])].join(' · ');
  return (
    <>
      <dt>{t('callFigures.day')}</dt>
      <dd>{line(figures.data.day)}</dd>
      <dt>{t('callFigures.week')}</dt>
      <dd>{line(figures.data.week)}</dd>
    </>
  );
}
