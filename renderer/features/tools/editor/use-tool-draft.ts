import { useRef, useState } from 'react';
import type { ToolView } from '../../../../shared/schemas/tool.js';
import { STARTER_SCRIPT } from '../../../../shared/tools/script-sandbox-types.js';
import { draftFrom, newHttpDraft, nextVersion, slugFrom, textOf, type Draft } from './draft.js';

/** What a tool of each type starts from when the type is switched to it. */
const STARTER_IMPLS: Record<string, unknown> = {
  http: { method: 'GET', urlTemplate: 'https://' },
  local: { func: '' },
  agent: { providerId: '', model: '', tools: [], maxTurns: 6 },
  script: { language: 'typescript', source: STARTER_SCRIPT },
  recipe: { steps: [], output: {} },
};

/**
 * A tool draft as the editor holds it while a person edits: the document,
 * the JSON text that does not parse yet (kept, shown and blocking Save), the
 * slug that follows the name until edited, each type's own impl kept while
 * another type is tried, which fields the person has reached (their problems
 * show), and whether anything would be lost by leaving. No API here: the
 * editor checks and saves what this holds.
 */
export function useToolDraft(base: ToolView | null, startDraft?: Record<string, unknown>) {
  const [draft, setDraftState] = useState<Draft>(() => (base ? { ...draftFrom(base), version: nextVersion(base.version) } : startDraft ? { ...newHttpDraft(), ...startDraft } : newHttpDraft()));
  const [initial] = useState(() => JSON.stringify(draft));
  const [slugTouched, setSlugTouched] = useState(base !== null);
  // Replacements from outside the focused field (the JSON tab, a reload, cURL) bump it: the editors remount.
  const [revision, setRevision] = useState(0);
  /** Text of JSON fields that does not parse yet, by JSON pointer ('' is the whole tool.json). */
  const [typed, setTypedState] = useState<Record<string, string>>({});
  // A new tool's problems show field by field as the person leaves each one, and all of them once they try to save.
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [showAll, setShowAll] = useState(base !== null);
  const implsByType = useRef<Record<string, unknown>>({});

  // The slug follows the whole display name, key by key, until the person edits the slug itself.
  const setDraft = (next: Draft) => {
    if (!slugTouched && next.displayName !== draft.displayName) next = { ...next, slug: slugFrom(textOf(next.displayName)) };
    else if (next.slug !== draft.slug) setSlugTouched(true);
    setDraftState(next);
  };
  const blockers = Object.keys(typed);
  return {
    draft,
    setDraft,
    /** Another type takes another impl: each type's impl is kept while the editor is open, so switching back loses nothing. */
    setDraftOrType: (next: Draft) => {
      if (next.type === draft.type) return setDraft(next);
      implsByType.current[String(draft.type)] = draft.impl;
      setDraft({ ...next, impl: implsByType.current[String(next.type)] ?? STARTER_IMPLS[String(next.type)] ?? {} });
    },
    /** A change made from the newest draft (a schema editor's): no slug to follow, nothing remounts. The same function every render. */
    updateDraft: setDraftState as (change: (current: Draft) => Draft) => void,
    /** The whole tool.json as typed in the JSON tab: taken when it parses (field texts with it), else kept as typed. */
    setDocumentText: (text: string, parsed: Draft | null) => {
      if (parsed) {
        setTypedState({});
        setDraftState(parsed);
      } else {
        setTypedState({ '': text });
      }
    },
    /** For replacements from outside the focused field: the editors remount with it. */
    replaceDraft: (next: Draft) => {
      setDraftState(next);
      setRevision((value) => value + 1);
    },
    /** The slug a draft named `name` gets: its own once edited, else one made from the name. */
    slugFor: (name: string) => (slugTouched ? draft.slug : slugFrom(name)),
    revision,
    typed,
    blockers,
    setTyped: (pointer: string, text: string | null) => {
      setTypedState((current) => {
        if (text === null) {
          if (!(pointer in current)) return current;
          const { [pointer]: _fixed, ...rest } = current;
          return rest;
        }
        return { ...current, [pointer]: text };
      });
    },
    /** Anything that leaving would lose: text that does not parse, or a document other than the one editing began with. */
    dirty: blockers.length > 0 || JSON.stringify(draft) !== initial,
    touch: (pointer: string) => {
      setTouched((current) => {
        // The slug (and with it the address, slug and version) follows the name until edited: touching the name touches them.
        const reached = pointer === '/displayName' && !slugTouched ? [pointer, '/slug', '/version'] : [pointer];
        return reached.every((entry) => current.has(entry)) ? current : new Set([...current, ...reached]);
      });
    },
    /** Whether a field's problems show: once reached, or all of them after a try to save; schemas always. */
    isShown: (pointer: string) =>
      showAll || pointer.startsWith('/argSchema') || pointer.startsWith('/outputSchema') || [...touched].some((seen) => pointer === seen || pointer.startsWith(`${seen}/`)),
    showEveryProblem: () => setShowAll(true),
  };
}

export type ToolDraftState = ReturnType<typeof useToolDraft>;
