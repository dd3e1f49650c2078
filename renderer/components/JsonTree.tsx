import { useState } from 'react';
import { useTranslation } from 'react-i18next';
const COLLAPSE_BEYOND = 20;

function Primitive({ value }: { value: unknown }) {
  const kind = value === null ? 'null' : typeof value;
  return <span className={`json-tree__${kind}`}>{JSON.stringify(value)}</span>;
}

function Node({ name, value, depth }: { name?: string; value: unknown; depth: number }) {
  const { t } = useTranslation();
  const size = value !== null && typeof value === 'object' ? (Array.isArray(value) ? value.length : Object.keys(value).length) : 0;
  // A folded node draws its children only once opened: a megabyte value costs its first level, not every line.
  const [expanded, setExpanded] = useState(depth < 2 && size <= COLLAPSE_BEYOND);
  const label = name === undefined ? null : <span className="json-tree__key">{JSON.stringify(name)}: </span>;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="json-tree__line">
        {label}
        <Primitive value={value} />
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div className="json-tree__line">
        {label}
        {open}
        {close}
      </div>
    );
  }
  return (
    <details className="json-tree__node" open={expanded} onToggle={(event) => setExpanded(event.currentTarget.open)}>
      <summary>
        {label}
        {open}
        <span className="json-tree__count">
          {' '}
          {Array.isArray(value) ? t('jsonTree.items', { count: entries.length }) : t('jsonTree.keys', { count: entries.length })}{' '}
        </span>
      </summary>
      {expanded ? (
        <>
          <div className="json-tree__children">
            {entries.map(([key, item]) => (
              <Node key={key} name={Array.isArray(value) ? undefined : key} value={item as unknown} depth={depth + 1} />
            ))}
          </div>
          <div className="json-tree__line">{close}</div>
        </>
      ) : null}
    </details>
  );
}

/** Untrusted JSON (tool output) as a collapsible tree; text only, nothing is rendered as markup. */
export function JsonTree({ value }: { value: unknown }) {
  return (
    <div className="json-tree">
      <Node value={value} depth={0} />
    </div>
  );
}
