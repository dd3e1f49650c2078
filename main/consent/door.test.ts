import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { ToolSelection } from '../../shared/schemas/chat.js';
import type { LiveQuestion } from '../../shared/schemas/questions.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import { createEventBus } from '../api/event-bus.js';
import { mcpRecords } from '../mcp-client/records.js';
import { LiveQuestions } from '../questions/live-questions.js';
import type { Caller } from './consent.js';
import { createDoor, selectionKey, type DoorVerdict } from './door.js';

// Every kind of caller × every reason to ask, through the one door: who passes, who is asked (and what the
// question names), who is refused and with which code. The questions are Toolbelt's own live questions, answered
// as a person would through the window.

const AT = '2026-03-01T10:00:00.000Z';
const BUNDLE = '0190a000-0000-7000-8000-000000000001';

function toolFile(extra: Partial<ToolFile> = {}): ToolFile {
  return {
    schemaVersion: '1',
    toolID: '0190a000-0000-7000-8000-0000000000aa',
    bundleID: BUNDLE,
    slug: 'delete-repo',
    version: 'v1',
    displayName: 'Delete repo',
    description: '',
    tags: [],
    type: 'local',
    isEnabled: true,
    isBuiltIn: false,
    argSchema: { type: 'object' },
    impl: { function: 'echo' },
    createdAt: AT,
    modifiedAt: AT,
    ...extra,
  } as ToolFile;
}

/** A tool of an MCP server, as Toolbelt turns it into a record (its annotations and the server's askFirst decide). */
function mcpTool(tool: Partial<Tool>, askFirst?: 'as-annotated' | 'always' | 'never'): ToolFile {
  const { tools } = mcpRecords('files', [{ name: 'act', inputSchema: { type: 'object' }, ...tool }], AT, askFirst);
  const record = tools[0]!;
  if (record.kind !== 'valid') throw new Error('the MCP tool did not become a record');
  return record.tool;
}

const selection = (extra: Partial<ToolSelection> = {}): ToolSelection => ({ bundleID: BUNDLE, slug: 'delete-repo', version: 'v1', ...extra });

type Reason = { name: string; tool: ToolFile; selection?: ToolSelection; manual?: boolean; alwaysAllowed?: boolean };

const REASONS: Reason[] = [
  { name: 'nothing asks', tool: toolFile() },
  { name: 'the tool asks before every call', tool: toolFile({ requiresApproval: true }) },
  { name: 'the chat asks first for this tool', tool: toolFile(), selection: selection({ requiresApproval: true }) },
  { name: 'the chat never allows this tool', tool: toolFile(), selection: selection({ denied: true }) },
  { name: 'manual mode', tool: toolFile(), manual: true },
  { name: 'the tool asks, and the chat always allows it', tool: toolFile({ requiresApproval: true }), selection: selection(), alwaysAllowed: true },
  { name: 'an MCP tool a model may call (annotations not trusted)', tool: mcpTool({ annotations: { readOnlyHint: true } }) },
  { name: 'an MCP tool marked read-only on a server whose marks are trusted', tool: mcpTool({ annotations: { readOnlyHint: true } }, 'as-annotated') },
  { name: 'an MCP App plumbing tool that says it destroys', tool: mcpTool({ annotations: { destructiveHint: true }, _meta: { ui: { resourceUri: 'ui://files/app', visibility: ['app'] } } }) },
  { name: 'an MCP App plumbing tool that does not', tool: mcpTool({ _meta: { ui: { resourceUri: 'ui://files/app', visibility: ['app'] } } }) },
];

/** Whether each reason makes a call need the person's yes; `denied` is refused outright. */
const NEEDS: Record<string, 'no' | 'yes' | 'denied'> = {
  'nothing asks': 'no',
  'the tool asks before every call': 'yes',
  'the chat asks first for this tool': 'yes',
  'the chat never allows this tool': 'denied',
  'manual mode': 'yes',
  'the tool asks, and the chat always allows it': 'yes',
  'an MCP tool a model may call (annotations not trusted)': 'yes',
  'an MCP tool marked read-only on a server whose marks are trusted': 'no',
  'an MCP App plumbing tool that says it destroys': 'yes',
  'an MCP App plumbing tool that does not': 'no',
};

type Kind = Caller['kind'];
const KINDS: Kind[] = ['person', 'chat-model', 'agent', 'script', 'recipe', 'mcp-client', 'mcp-app'];

function callerOf(kind: Kind, reason: Reason): Caller {
  const manual = reason.manual === true;
  const path = ['Planner', 'Researcher'];
  switch (kind) {
    case 'person':
      return { kind };
    case 'chat-model':
      return { kind, manual, alwaysAllowed: reason.alwaysAllowed && reason.selection ? [selectionKey(reason.selection)] : [] };
    case 'agent':
    case 'script':
    case 'recipe':
      return { kind, path, ...(manual ? { manual } : {}) };
    case 'mcp-client':
      return { kind, client: 'Claude Desktop' };
    case 'mcp-app':
      return { kind, server: 'files', app: 'File browser' };
  }
}

/** What should happen, stated per caller: the rules the door keeps. */
function expected(kind: Kind, reason: Reason): 'pass' | 'ask' | 'approval_required' | 'tool_denied' {
  if (kind === 'person') return 'pass';
  // A tool list's switches (ask first, never allow) hold for any caller that brings the list; manual mode is a chat's,
  // and reaches the agents, scripts and recipes its calls run; "always allow" is a chat's own list.
  const manualApplies = kind === 'chat-model' || kind === 'agent' || kind === 'script' || kind === 'recipe';
  let need = NEEDS[reason.name]!;
  if (need === 'denied') return 'tool_denied';
  if (reason.manual && !manualApplies) need = 'no';
  if (reason.alwaysAllowed && kind === 'chat-model') need = 'no';
  if (need === 'no') return 'pass';
  return kind === 'chat-model' ? 'approval_required' : 'ask';
}

function harness() {
  const events = createEventBus((error) => {
    throw error;
  });
  const questions = new LiveQuestions({ events, clock: { now: () => new Date(AT) } });
  const asked: LiveQuestion[] = [];
  let answer: 'accept' | 'decline' = 'accept';
  events.subscribe((event) => {
    if (event.type !== 'questions.changed') return;
    for (const question of questions.list()) {
      if (asked.some((seen) => seen.id === question.id)) continue;
      asked.push(question);
      questions.answer(question.id, answer === 'accept' ? { action: 'accept', content: {} } : { action: 'decline' });
    }
  });
  let windowOpen = true;
  const door = createDoor({ questions, windowOpen: () => windowOpen });
  return {
    door,
    asked,
    answerWith: (said: 'accept' | 'decline') => (answer = said),
    closeWindow: () => (windowOpen = false),
  };
}

const pass = async (door: ReturnType<typeof harness>['door'], reason: Reason, caller: Caller, approved?: boolean): Promise<DoorVerdict> =>
  door.pass(reason.tool, { name: 'toolbelt' }, { caller, ...(reason.selection ? { selection: reason.selection } : {}), ...(approved ? { approved } : {}) }, new AbortController().signal);

describe('the door, for every caller and every reason to ask', () => {
  for (const reason of REASONS) {
    for (const kind of KINDS) {
      const outcome = expected(kind, reason);
      it(`${reason.name}: ${kind} → ${outcome}`, async () => {
        const { door, asked } = harness();
        const caller = callerOf(kind, reason);
        const verdict = await pass(door, reason, caller);
        if (outcome === 'pass') {
          expect(verdict).toEqual({ open: true, asked: false });
          expect(asked).toEqual([]);
        } else if (outcome === 'ask') {
          expect(verdict).toEqual({ open: true, asked: true });
          expect(asked).toHaveLength(1);
          expect(asked[0]!.approval).toMatchObject({ slug: reason.tool.slug, args: { name: 'toolbelt' } });
          // The question names who wants the call: an agent's whole path, the client, the app.
          const who = kind === 'mcp-client' ? 'Claude Desktop' : kind === 'mcp-app' ? 'The app of File browser' : 'Planner → Researcher';
          expect(asked[0]!.message).toContain(`${who} wants to run ${reason.tool.displayName}`);
        } else {
          expect(verdict).toMatchObject({ open: false, code: outcome });
          expect(asked).toEqual([]);
        }
        // The loop's question ahead of a call agrees with the door (a chat suspends exactly when its call would be refused).
        if (kind === 'chat-model') expect(door.need(caller, reason.tool, reason.selection) !== null).toBe(outcome === 'approval_required');
      });
    }
  }
});

describe('what the door does with an answer', () => {
  const asks = REASONS[1]!;

  it("lets a chat's call through with the person's yes, and never asks again for it", async () => {
    const { door, asked } = harness();
    expect(await pass(door, asks, { kind: 'chat-model', manual: false, alwaysAllowed: [] }, true)).toEqual({ open: true, asked: false });
    expect(asked).toEqual([]);
  });

  it('refuses a live caller the person declines, with a sentence the caller reads', async () => {
    const { door, answerWith } = harness();
    answerWith('decline');
    const verdict = await pass(door, asks, { kind: 'mcp-client', client: 'Claude Desktop' });
    expect(verdict).toMatchObject({ open: false, code: 'denied' });
    expect(verdict.open ? '' : verdict.message).toContain('denied this call to Delete repo');
  });

  it('says no window is open to ask in, and what to change, instead of waiting for nobody', async () => {
    const { door, asked, closeWindow } = harness();
    closeWindow();
    const verdict = await pass(door, asks, { kind: 'agent', path: ['Planner'] });
    expect(verdict).toMatchObject({ open: false, code: 'approval_unavailable' });
    expect(verdict.open ? '' : verdict.message).toContain('Ask before every call');
    expect(asked).toEqual([]);
  });

  it('tells a waiting caller when the asking starts and how it ended', async () => {
    const { door } = harness();
    const told: string[] = [];
    const verdict = await door.pass(asks.tool, {}, { caller: { kind: 'mcp-app', server: 'files', app: 'Files' }, whileAsking: () => (told.push('asking'), (answered) => told.push(answered.open ? 'allowed' : 'refused')) }, new AbortController().signal);
    expect(verdict.open).toBe(true);
    expect(told).toEqual(['asking', 'allowed']);
  });

  it('refuses a call that names no caller (a caller added without asking), and one whose caller it does not know', async () => {
    const { door } = harness();
    for (const caller of [undefined, { kind: 'plugin' }]) {
      const verdict = await door.pass(asks.tool, {}, { caller: caller as unknown as Caller }, new AbortController().signal);
      expect(verdict).toMatchObject({ open: false, code: 'approval_required' });
    }
    // Also a tool that asks nothing: who calls must be known before anything runs.
    const plain = await door.pass(REASONS[0]!.tool, {}, { caller: undefined as unknown as Caller }, new AbortController().signal);
    expect(plain).toMatchObject({ open: false, code: 'approval_required' });
  });
});
