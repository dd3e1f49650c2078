import type { ToolSelection } from '../../shared/schemas/chat.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import { approvalNeeded, createConsent, type ApprovalNeed, type Caller, type ConsentDeps, type LiveCaller } from './consent.js';

/**
 * The door every tool call passes, inside the invoker, between finding the
 * tool and running it: whoever calls, the same policy decides. Callers that
 * wait (an agent, a script, a recipe, an MCP client, an MCP App) are asked
 * here, live; a chat's model cannot wait (its run suspends and the chat keeps
 * the call), so the chat loop asks `need` first and brings the person's yes
 * with the call; a call that needs a yes and brings none is refused, never
 * run. The person's own runs pass.
 */
export interface Door {
  /** Whether a call must have the person's yes, and why; null when it may run at once. Decided without asking anyone. */
  need(caller: Caller, tool: ToolFile, selection?: ToolSelection): ApprovalNeed | null;
  /**
   * Lets the call through, asking the person when the caller can wait, or says why not. A promise only when
   * someone is asked: most calls are decided at once, and an await on every call cost ~1 µs (npm run bench).
   */
  pass(tool: ToolFile, args: Record<string, unknown>, call: DoorCall, signal: AbortSignal): DoorVerdict | Promise<DoorVerdict>;
}

/** What a call brings to the door besides its tool and arguments. */
export interface DoorCall {
  caller: Caller;
  /** How the caller's tool list names the tool (a chat's, an agent's), with its ask-first and never-allow switches. */
  selection?: ToolSelection;
  /** The person already said yes to this very call (a chat's approval dialog). */
  approved?: boolean;
  /** A hook of the person's asked that they say yes to this call (its reason), though nothing else would. */
  hookAsks?: string;
  /** Called when the person is asked (a caller that waits can say it waits); what it returns is called with the answer. */
  whileAsking?: () => (verdict: DoorVerdict) => void;
}

/** Why a call was not let through. Each is a result the caller (and a model) reads, never a crash. */
export type DoorRefusal = 'approval_required' | 'approval_unavailable' | 'denied' | 'cancelled' | 'tool_denied';

export type DoorVerdict = { open: true; asked: boolean } | { open: false; code: DoorRefusal; message: string };

const LIVE_KINDS: ReadonlySet<Caller['kind']> = new Set(['agent', 'script', 'recipe', 'mcp-client', 'mcp-app']);
const KNOWN_KINDS: ReadonlySet<string> = new Set<Caller['kind']>(['person', 'chat-model', ...LIVE_KINDS]);

/** Callers that can wait for the person while their call is under way, and so are asked at the door. */
export function isLive(caller: Caller): caller is LiveCaller {
  return LIVE_KINDS.has(caller.kind);
}

/** The key a chat's "Always allow" list keeps a tool under (the tool's address). */
export const selectionKey = (selection: Pick<ToolSelection, 'bundleID' | 'slug' | 'version'>) => `${selection.bundleID}/${selection.slug}/${selection.version}`;

export function createDoor(deps: ConsentDeps): Door {
  const consent = createConsent(deps);
  const need: Door['need'] = (caller, tool, selection) => approvalNeeded(caller, tool, selection, selectionKey);
  return {
    need,
    pass(tool, args, call, signal) {
      const { caller, selection } = call;
      // Refused by default: a call whose caller is not one the door knows (a new caller wired without it) never runs.
      if (!caller || !KNOWN_KINDS.has(caller.kind)) {
        return { open: false, code: 'approval_required', message: `Toolbelt does not know who wants to run ${tool.displayName}, so it did not run.` };
      }
      // A tool the person never allows in this chat (or this agent) is refused whoever's yes the call carries.
      if (selection?.denied && caller.kind !== 'person') {
        return { open: false, code: 'tool_denied', message: `The user does not allow the tool "${tool.displayName}" here, so it did not run. Answer without it, or ask the user.` };
      }
      // A hook's ask applies to every caller but the person, whose own run is their yes.
      const needed = need(caller, tool, selection) ?? (call.hookAsks && caller.kind !== 'person' ? { reason: call.hookAsks, by: 'tool' as const } : null);
      if (!needed || call.approved) return { open: true, asked: false };
      if (!isLive(caller)) {
        return {
          open: false,
          code: 'approval_required',
          message: `${tool.displayName} needs the person's yes before it runs (${needed.reason}), and this call did not have it, so it did not run.`,
        };
      }
      return askLive(caller, tool, args, needed, call, signal);
    },
  };

  async function askLive(caller: LiveCaller, tool: ToolFile, args: Record<string, unknown>, needed: ApprovalNeed, call: DoorCall, signal: AbortSignal): Promise<DoorVerdict> {
    const answered = call.whileAsking?.();
    let verdict: DoorVerdict = { open: false, code: 'cancelled', message: 'The call was cancelled before the person allowed it.' };
    try {
      const said = await consent.ask(caller, tool, args, needed, signal);
      verdict = said.allowed ? { open: true, asked: true } : { open: false, code: said.code, message: said.message };
      return verdict;
    } finally {
      answered?.(verdict);
    }
  }
}
