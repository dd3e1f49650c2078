import type { ToolSelection } from '../../shared/schemas/chat.js';
import type { LiveQuestion } from '../../shared/schemas/questions.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import type { LiveQuestions } from '../questions/live-questions.js';

/**
 * The one door to the person. Whoever wants a tool to run (a chat's model,
 * the person from the palette, an agent, another app over MCP, an MCP App,
 * a script or a recipe) asks here whether the person must say yes first, and, for
 * callers that wait, asks the person through the live questions every window
 * shows. One policy and one set of sentences for all of them; a chat keeps
 * its waiting calls in its file (they outlive a restart) but takes its reason
 * from here too.
 */

/** Who wants the call to run. */
export type Caller =
  /** A chat's model: the chat's own settings (always allowed, manual mode) apply. */
  | { kind: 'chat-model'; alwaysAllowed: readonly string[]; manual: boolean }
  /** The person, from the palette or a quick run: never asked to approve their own call. */
  | { kind: 'person' }
  /** An agent's model; `manual` when the chat it runs in runs calls only when the person says so. */
  | { kind: 'agent'; path: readonly string[]; manual?: boolean }
  /** A script tool calling another tool (`tools.call`), inside the scripts and agents of `path`; `manual` as for agents. */
  | { kind: 'script'; path: readonly string[]; manual?: boolean }
  /** A recipe tool's step, inside the recipes, scripts and agents of `path`; `manual` as for agents. */
  | { kind: 'recipe'; path: readonly string[]; manual?: boolean }
  | { kind: 'mcp-client'; client: string }
  /** An MCP App (the UI of a tool of `server`, named `app`) calling a tool of its server from its frame. */
  | { kind: 'mcp-app'; server: string; app: string };

/** The person's own run (the tester, a quick run, the palette): never asked to approve it. */
export const PERSON: Caller = Object.freeze({ kind: 'person' });

/** Callers that wait for the person's answer while the call is under way. */
export type LiveCaller = Extract<Caller, { kind: 'agent' | 'script' | 'recipe' | 'mcp-client' | 'mcp-app' }>;

/** Why the person must approve first, and whose setting it is (so a refusal can say what to change). */
export interface ApprovalNeed {
  reason: string;
  by: 'tool' | 'selection' | 'manual';
}

/** The key a chat's "Always allow" list keeps a tool under. */
export type SelectionKey = (selection: ToolSelection) => string;

/**
 * Whether this call needs the person's yes first, and why; null when it may
 * run at once. `selection` is how the caller's tool list names the tool (a
 * chat's or an agent's), with its ask-first switch.
 */
export function approvalNeeded(caller: Caller, tool: ToolFile, selection: ToolSelection | undefined, keyOf?: SelectionKey): ApprovalNeed | null {
  if (caller.kind === 'person') return null;
  if (caller.kind === 'chat-model') {
    if (selection && keyOf && caller.alwaysAllowed.includes(keyOf(selection))) return null;
    if (caller.manual) return { reason: 'This chat runs the model’s tool calls only when you say so (manual mode): run, edit or reject it.', by: 'manual' };
  } else if ((caller.kind === 'agent' || caller.kind === 'script' || caller.kind === 'recipe') && caller.manual) {
    return { reason: `${caller.path.at(-1) ?? 'The agent'} runs in a chat that runs tool calls only when you say so (manual mode).`, by: 'manual' };
  }
  // A tool list's ask-first switch holds for whoever brings one (a chat's, an agent's).
  if (selection?.requiresApproval) return { reason: caller.kind === 'chat-model' ? 'This chat asks before running this tool.' : `${listOwner(caller)} asks before running this tool.`, by: 'selection' };
  if (tool.requiresApproval) return { reason: 'The tool asks for approval before every call.', by: 'tool' };
  return null;
}

/** Who a caller's tool list belongs to, as a reason names it. */
function listOwner(caller: LiveCaller): string {
  if (caller.kind === 'mcp-client') return caller.client;
  if (caller.kind === 'mcp-app') return `The app of ${caller.app}`;
  return caller.path.at(-1) ?? 'The agent';
}

/** What the person said to a live caller's call. */
export type LiveVerdict = { allowed: true } | { allowed: false; code: 'approval_unavailable' | 'denied' | 'cancelled'; message: string };

export interface ConsentDeps {
  questions: Pick<LiveQuestions, 'ask'>;
  /** Whether a window is open to ask in. */
  windowOpen: () => boolean;
}

function askerOf(caller: LiveCaller): LiveQuestion['from'] {
  if (caller.kind === 'agent') return { kind: 'agent', path: [...caller.path] };
  if (caller.kind === 'script' || caller.kind === 'recipe') return { kind: caller.kind, path: [...caller.path] };
  if (caller.kind === 'mcp-app') return { kind: 'mcp-app', server: caller.server, app: caller.app };
  return { kind: 'mcp-client', client: caller.client };
}

function whoAsks(caller: LiveCaller): string {
  if (caller.kind === 'agent' || caller.kind === 'script' || caller.kind === 'recipe') return caller.path.join(' → ');
  if (caller.kind === 'mcp-app') return `The app of ${caller.app}`;
  return caller.client;
}

/** Asks the person, now, whether a live caller's call may run; the sentence of a refusal is what the caller reads. */
export function createConsent(deps: ConsentDeps) {
  return {
    async ask(caller: LiveCaller, tool: ToolFile, args: Record<string, unknown>, need: ApprovalNeed, signal: AbortSignal): Promise<LiveVerdict> {
      if (!deps.windowOpen()) {
        const change =
          need.by === 'manual'
            ? 'switch the chat to run tool calls automatically'
            : need.by === 'selection' && caller.kind === 'agent'
              ? `let ${caller.path.at(-1)} run it without asking (its tools)`
              : 'switch off "Ask before every call" for this tool';
        return {
          allowed: false,
          code: 'approval_unavailable',
          message: `${tool.displayName} asks the person before it runs, and no Toolbelt window is open to ask in. Open Toolbelt and approve it there, or ${change}.`,
        };
      }
      const request = { bundleID: tool.bundleID, slug: tool.slug, version: tool.version, displayName: tool.displayName, args };
      const answer = await deps.questions.ask(askerOf(caller), `${whoAsks(caller)} wants to run ${tool.displayName}.`, { type: 'object', properties: {} }, signal, request);
      if (answer.action === 'accept') return { allowed: true };
      if (signal.aborted) return { allowed: false, code: 'cancelled', message: 'The call was cancelled before the person allowed it.' };
      return { allowed: false, code: 'denied', message: `The user denied this call to ${tool.displayName}. Go on without it, or answer with what you have; do not try it again unless they ask.` };
    },
  };
}

export type Consent = ReturnType<typeof createConsent>;

/** A question a tool asks the person (the ask-user built-in) on behalf of a live caller, as a form in every window. */
export function askPersonFor(deps: ConsentDeps, caller: LiveCaller, signal: AbortSignal) {
  return async (question: string, choices?: string[]): Promise<string> => {
    if (!deps.windowOpen()) throw new Error('Asking the user needs a Toolbelt window, and none is open.');
    const answer = await deps.questions.ask(
      askerOf(caller),
      question,
      { type: 'object', properties: { answer: choices?.length ? { type: 'string', title: 'Answer', enum: choices } : { type: 'string', title: 'Answer' } }, required: ['answer'] },
      signal,
    );
    if (answer.action !== 'accept') throw new Error('The person did not answer.');
    const said = answer.content?.answer;
    return typeof said === 'string' ? said : JSON.stringify(said ?? '');
  };
}
