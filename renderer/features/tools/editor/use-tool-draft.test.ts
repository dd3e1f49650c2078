// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ToolView } from '../../../../shared/schemas/tool.js';
import type { Draft } from './draft.js';
import { useToolDraft } from './use-tool-draft.js';

// The editor's draft as a person edits it, without the editor around it.

const draftOf = (hook: { current: ReturnType<typeof useToolDraft> }) => hook.current.draft;
const type = (hook: { current: ReturnType<typeof useToolDraft> }, change: (draft: Draft) => Draft) => act(() => hook.current.setDraft(change(hook.current.draft)));

describe('a tool draft', () => {
  it("follows the name with the slug key by key, until the slug itself is edited, then keeps the person's slug", () => {
    const { result } = renderHook(() => useToolDraft(null));
    for (const name of ['W', 'We', 'Weather now']) type(result, (draft) => ({ ...draft, displayName: name }));
    expect(draftOf(result).slug).toBe('weather-now');
    type(result, (draft) => ({ ...draft, slug: 'forecast' }));
    type(result, (draft) => ({ ...draft, displayName: 'Weather later' }));
    expect(draftOf(result).slug).toBe('forecast');
    expect(result.current.slugFor('Anything')).toBe('forecast');
  });

  it('keeps an existing tool\'s slug and starts its next version', () => {
    const base = { slug: 'geocode', version: 'v1', displayName: 'Geocode', type: 'http', argSchema: { type: 'object' }, impl: { method: 'GET', urlTemplate: 'https://x.test' } } as unknown as ToolView;
    const { result } = renderHook(() => useToolDraft(base));
    expect(draftOf(result)).toMatchObject({ slug: 'geocode', version: 'v2' });
    type(result, (draft) => ({ ...draft, displayName: 'Find a place' }));
    expect(draftOf(result).slug).toBe('geocode');
  });

  it('keeps JSON that does not parse as typed, says leaving would lose it, and lets it go once fixed', () => {
    const { result } = renderHook(() => useToolDraft(null));
    expect(result.current.dirty).toBe(false);
    act(() => result.current.setTyped('/argSchema', '{"type": '));
    expect(result.current.typed['/argSchema']).toBe('{"type": ');
    expect(result.current.blockers).toEqual(['/argSchema']);
    expect(result.current.dirty).toBe(true);
    act(() => result.current.setTyped('/argSchema', null));
    expect(result.current.blockers).toEqual([]);
    expect(result.current.dirty).toBe(false);
  });

  it('takes the whole document from the JSON tab when it parses, and keeps the text when it does not', () => {
    const { result } = renderHook(() => useToolDraft(null));
    act(() => result.current.setDocumentText('{"displayName": ', null));
    expect(result.current.typed['']).toBe('{"displayName": ');
    const parsed = { ...draftOf(result), displayName: 'Typed whole' };
    act(() => result.current.setDocumentText(JSON.stringify(parsed), parsed));
    expect(result.current.typed).toEqual({});
    expect(draftOf(result).displayName).toBe('Typed whole');
  });

  it("keeps each type's impl while another type is tried, and starts a new type from its starter", () => {
    const { result } = renderHook(() => useToolDraft(null));
    type(result, (draft) => ({ ...draft, impl: { method: 'POST', urlTemplate: 'https://api.test/items' } }));
    act(() => result.current.setDraftOrType({ ...draftOf(result), type: 'script' }));
    expect(draftOf(result).impl).toMatchObject({ language: 'typescript' });
    act(() => result.current.setDraftOrType({ ...draftOf(result), type: 'http' }));
    expect(draftOf(result).impl).toEqual({ method: 'POST', urlTemplate: 'https://api.test/items' });
  });

  it("shows a new tool's problems field by field as they are reached (the name reaches the slug and version too), and all after a try to save", () => {
    const { result } = renderHook(() => useToolDraft(null));
    expect(result.current.isShown('/displayName')).toBe(false);
    expect(result.current.isShown('/argSchema/properties')).toBe(true);
    act(() => result.current.touch('/displayName'));
    expect(['/displayName', '/slug', '/version'].map(result.current.isShown)).toEqual([true, true, true]);
    expect(result.current.isShown('/impl/urlTemplate')).toBe(false);
    act(() => result.current.showEveryProblem());
    expect(result.current.isShown('/impl/urlTemplate')).toBe(true);
  });

  it('remounts the editors for a replacement from outside the field (a reload, cURL), not for typing', () => {
    const { result } = renderHook(() => useToolDraft(null));
    type(result, (draft) => ({ ...draft, displayName: 'A' }));
    expect(result.current.revision).toBe(0);
    act(() => result.current.replaceDraft({ ...draftOf(result), displayName: 'From cURL' }));
    expect(result.current.revision).toBe(1);
    expect(draftOf(result).displayName).toBe('From cURL');
  });
});
