import { useTranslation } from 'react-i18next';
import type { ToolSelection } from '../../shared/schemas/chat.js';
import type { ToolView } from '../../shared/schemas/tool.js';
import { VersionBadge } from './VersionBadge.js';

/** One tool in the picker: its box, and once chosen, what the model may do with it. */
export function ToolPickerRow({
  tool,
  entry,
  fallbackName,
  idBase,
  pinnable,
  change,
}: {
  /** Null for a chosen tool that is no longer here (listed so it can be let go); undefined while it is looked up. */
  tool: ToolView | null | undefined;
  entry: ToolSelection | undefined;
  fallbackName: string;
  idBase: string;
  pinnable: boolean;
  change: (patch: Partial<ToolSelection> | null) => void;
}) {
  const { t } = useTranslation();
  const name = tool?.displayName ?? fallbackName;
  return (
    <div className="tool-picker__row">
      <label className={`checkbox${entry?.denied ? ' tool-picker__name--denied' : ''}`}>
        <input type="checkbox" checked={Boolean(entry)} onChange={(event) => change(event.target.checked ? {} : null)} />
        {/* A tool's name reads in its own direction (an English name in an Arabic window keeps its words in order). */}
        <bdi>{name}</bdi> <code className="muted">{tool?.slug ?? entry?.slug}</code>
        {tool ? <VersionBadge tool={tool} /> : null}
        {entry?.denied ? <span className="badge badge--quiet">{t('toolPicker.neverAllowed')}</span> : null}
        {tool?.requiresApproval ? <span className="badge badge--quiet">{t('toolPicker.asksFirst')}</span> : null}
        {tool === null ? <span className="badge badge--quiet">{t('toolPicker.gone')}</span> : null}
      </label>
      {entry ? <SelectionOptions aliasId={`${idBase}-alias`} name={name} entry={entry} pinnable={pinnable} change={change} /> : null}
    </div>
  );
}

function SelectionOptions({ aliasId, name, entry, pinnable, change }: { aliasId: string; name: string; entry: ToolSelection; pinnable: boolean; change: (patch: Partial<ToolSelection>) => void }) {
  const { t } = useTranslation();
  return (
    <span className="tool-picker__options">
      {pinnable ? (
        <label className="checkbox" title={t('toolPicker.alwaysOfferHint')}>
          <input type="checkbox" checked={Boolean(entry.pinned)} disabled={entry.denied} onChange={(event) => change({ pinned: event.target.checked })} />
          {t('toolPicker.alwaysOffer')}
        </label>
      ) : null}
      <label className="checkbox">
        <input type="checkbox" checked={Boolean(entry.requiresApproval)} disabled={entry.denied} onChange={(event) => change({ requiresApproval: event.target.checked })} />
        {t('toolPicker.askFirst')}
      </label>
      <label className="checkbox" title={t('toolPicker.neverAllowHint')}>
        <input type="checkbox" checked={Boolean(entry.denied)} onChange={(event) => change({ denied: event.target.checked })} />
        {t('toolPicker.neverAllow')}
      </label>
      <label className="tool-picker__limit" title={t('toolPicker.limitHint')}>
        <input
          className="input input--small"
          inputMode="numeric"
          aria-label={t('toolPicker.limitLabel', { name })}
          placeholder="16"
          value={entry.resultLimit === undefined ? '' : String(entry.resultLimit / 1000)}
          onChange={(event) => {
            const kb = Number(event.target.value);
            change({ resultLimit: event.target.value.trim() && Number.isFinite(kb) ? Math.min(1000, Math.max(1, Math.round(kb))) * 1000 : undefined });
          }}
        />
        {t('toolPicker.limitUnit')}
      </label>
      <label className="visually-hidden" htmlFor={aliasId}>
        {t('toolPicker.aliasLabel', { name })}
      </label>
      <input
        id={aliasId}
        className="input input--small"
        placeholder={t('toolPicker.aliasPlaceholder')}
        pattern="[a-zA-Z0-9_\-]{1,64}"
        dir="ltr"
        value={entry.as ?? ''}
        onChange={(event) => change({ as: event.target.value })}
      />
    </span>
  );
}
