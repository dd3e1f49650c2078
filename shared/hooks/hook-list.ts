import { HOOK_EVENTS, type HookEvent, type HookHandler, type Hooks } from '../schemas/hooks.js';

/** One handler of a hooks block, as a person reads it before switching it on: when it runs and what, in full. */
export interface ListedHook {
  event: HookEvent;
  /** The pattern on tool names; absent: every tool. */
  matcher?: string;
  type: HookHandler['type'];
  /** The whole command, the URL it posts to, or the script tool it runs. */
  runs: string;
}

export function listHooks(hooks: Hooks | undefined): ListedHook[] {
  return HOOK_EVENTS.flatMap((event) =>
    (hooks?.[event] ?? []).flatMap((entry) =>
      entry.hooks.map((handler) => ({
        event,
        ...(entry.matcher && entry.matcher !== '*' ? { matcher: entry.matcher } : {}),
        type: handler.type,
        runs: handler.type === 'command' ? handler.command : handler.type === 'http' ? handler.url : handler.tool,
      })),
    ),
  );
}
