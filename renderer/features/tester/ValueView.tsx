import { useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ToolValue } from '../../components/ContentBlocks.js';
import { lineFinder, MAX_MATCHES, type FoundLine } from './line-finder.js';

const PREVIEW_LIMIT = 50_000;
/** A value shown in part, with the note of what is left out on a line of its own. */
export const withNote = (text: string, note: string) => `${text}\n${note}`;

function FoundLines({ find, query }: { find: (query: string) => FoundLine[]; query: string }) {
  const { t } = useTranslation();
  const matches = useMemo(() => find(query), [find, query]);
  const said = { count: matches.length, query: query.trim() };
  return (
    <div className="value-search__found" role="region" aria-label={t('response.matches')}>
      <p className="muted" role="status">
        {matches.length === 0 ? t('response.noLine', said) : matches.length === MAX_MATCHES ? t('response.linesCapped', said) : t('response.lines', said)}
      </p>
      {matches.length > 0 ? (
        <ol className="code-block value-search__lines">
          {matches.map((match) => (
            <li key={match.line} value={match.line}>
              <code>{match.text}</code>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}

/** A value to read: as a tree or as raw JSON, with a finder that lists the lines holding what is typed. */
export function ValueView({ value, heading }: { value: unknown; heading: string }) {
  const { t } = useTranslation();
  // Made once per value, not on every key typed into the find box (a 5 MB value took ~100 ms to print).
  const valueText = useMemo(() => JSON.stringify(value, null, 2) ?? 'null', [value]);
  const find = useMemo(() => lineFinder(valueText), [valueText]);
  // What the finder searches is made in a task of its own once the value is shown, before anyone types.
  useEffect(() => {
    const timer = setTimeout(find.prepare, 0);
    return () => clearTimeout(timer);
  }, [find]);
  const structured = value !== null && typeof value === 'object';
  const [view, setView] = useState<'tree' | 'raw'>('tree');
  const [query, setQuery] = useState('');
  // The box shows each key at once; the lines found follow when the page has a moment.
  const deferredQuery = useDeferredValue(query);
  const searchId = useId();
  return (
    <>
      <div className="response__value-head">
        <h3 className="subhead">{heading}</h3>
        <label className="visually-hidden" htmlFor={searchId}>
          {t('response.find')}
        </label>
        <input
          id={searchId}
          className="input input--small value-search"
          type="search"
          placeholder={t('response.findPlaceholder')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        {structured ? (
          <div role="tablist" aria-label={t('response.view')} className="tabs">
            <button type="button" role="tab" aria-selected={view === 'tree'} className="tab" onClick={() => setView('tree')}>
              {t('response.tree')}
            </button>
            <button type="button" role="tab" aria-selected={view === 'raw'} className="tab" onClick={() => setView('raw')}>
              {t('response.raw')}
            </button>
          </div>
        ) : null}
      </div>
      {query.trim() ? (
        <FoundLines find={find} query={deferredQuery} />
      ) : structured && view === 'tree' && valueText.length <= PREVIEW_LIMIT ? (
        <div className="code-block" data-testid="tester-value">
          <ToolValue value={value} />
        </div>
      ) : (
        <pre className="code-block" data-testid="tester-value">
          {valueText.length > PREVIEW_LIMIT ? withNote(valueText.slice(0, PREVIEW_LIMIT), t('response.restNotShown', { chars: valueText.length })) : valueText}
        </pre>
      )}
    </>
  );
}
