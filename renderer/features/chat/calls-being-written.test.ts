import { beforeEach, describe, expect, it } from 'vitest';
import { useInputDrafts } from '../../state/input-drafts.js';
import { partialArguments } from './calls-being-written.js';

const tool = { bundleID: '01a20000-0000-7000-8000-000000000001', slug: 'writer', version: 'mcp', displayName: 'Writer', bundleName: 'apps' };
const delta = (argsDelta: string, callId = 'call_1') => ({ type: 'tool-call-delta' as const, messageId: 'm1', callId, name: 'writer', argsDelta, tool });

describe('calls the model is still writing', () => {
  beforeEach(() => useInputDrafts.setState({ drafts: {} }));

  it('gathers each call’s argument text from its pieces, per chat, until the run ends', () => {
    const { apply } = useInputDrafts.getState();
    apply('chat-a', [delta('{"text":"A lo'), delta('ng one'), delta('{"n":', 'call_2')]);
    apply('chat-b', [delta('{}')]);
    expect(useInputDrafts.getState().drafts['chat-a']).toMatchObject({ call_1: { text: '{"text":"A long one', tool }, call_2: { text: '{"n":' } });
    expect(useInputDrafts.getState().drafts['chat-b']?.call_1?.text).toBe('{}');
    apply('chat-a', [{ type: 'finish', reason: 'stop', status: 'idle' }]);
    expect(useInputDrafts.getState().drafts['chat-a']).toBeUndefined();
    expect(useInputDrafts.getState().drafts['chat-b']).toBeDefined();
  });

  it('reads arguments as far as they go, and nothing from what does not read as JSON yet', () => {
    expect(partialArguments('{"text":"A lo')).toEqual({ text: 'A lo' });
    expect(partialArguments('{"items":[1,2,{"a":')).toEqual({ items: [1, 2, {}] });
    expect(partialArguments('')).toEqual({});
    expect(partialArguments('[1,2')).toEqual({});
    expect(partialArguments('}{not json')).toEqual({});
  });
});
