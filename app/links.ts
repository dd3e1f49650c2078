import type { OpenRequest } from '../main/core/open-request.js';
import { LINK_SCHEME } from '../shared/links/toolbelt-link.js';


/**
 * The `toolbelt://` links and `.mcpb` files among a launch's arguments
 * (Windows and Linux pass them there). A
 * second launch hands its arguments to the first (single instance); the
 * first shows what they ask and does nothing before the person confirms.
 * Flags (`--…`) and Chromium's switches are never taken for either.
 */
export function openRequestOf(argv: readonly string[]): OpenRequest {
  const links: string[] = [];
  const bundles: string[] = [];
  for (const arg of argv.slice(1)) {
    if (arg.startsWith('-')) continue;
    if (arg.toLowerCase().startsWith(`${LINK_SCHEME}:`)) links.push(arg);
    else if (/\.mcpb$/i.test(arg)) bundles.push(arg);
  }
  return { links, bundles };
}
