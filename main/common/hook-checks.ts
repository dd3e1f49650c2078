import { ToolbeltError } from '../../shared/errors.js';
import { HOOK_EVENTS, MAX_HOOK_HANDLERS, type Hooks } from '../../shared/schemas/hooks.js';
import { linearRegexProblem } from './linear-regex.js';

/** Whether a matcher takes every tool (absent, empty or `*`, as the other apps have it). */
export const matchesAll = (matcher: string | undefined) => matcher === undefined || matcher === '' || matcher === '*';

/** Why a matcher cannot be used, or null: said when the hooks are saved, never at a call. */
export function matcherProblem(matcher: string | undefined): string | null {
  if (matchesAll(matcher)) return null;
  return linearRegexProblem(`^(?:${matcher})$`, '');
}

/**
 * What the schema cannot say about hooks a person saves (in settings or a bundle): a matcher that is not a pattern the
 * linear-time engine runs, or more handlers in all than Toolbelt runs. Refused when saved, with where, never found out
 * at a call.
 */
export function refuseBadHooks(hooks: Hooks, at = '/hooks'): void {
  let handlers = 0;
  for (const event of HOOK_EVENTS) {
    for (const [index, entry] of (hooks[event] ?? []).entries()) {
      handlers += entry.hooks.length;
      const problem = matcherProblem(entry.matcher);
      if (problem) throw new ToolbeltError('invalid_params', `hooks.${event}[${index}].matcher ${problem}.`, { issues: [{ path: `${at}/${event}/${index}/matcher`, message: problem }] });
    }
  }
  if (handlers > MAX_HOOK_HANDLERS) {
    throw new ToolbeltError('invalid_params', `These hooks have ${handlers} handlers; Toolbelt runs at most ${MAX_HOOK_HANDLERS}. Keep the ones you need.`, { issues: [{ path: at, message: `more than ${MAX_HOOK_HANDLERS} handlers` }] });
  }
}
