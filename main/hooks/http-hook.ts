import { readUpTo } from '../common/read-up-to.js';
import { HOOK_OUTPUT_LIMIT, type CommandOutcome } from './command-hook.js';

/**
 * An http hook: the call's JSON POSTed to a URL on an allowed host, its answer read as a command's output would be
 * (a 2xx body is its stdout; any other status an error that blocks nothing). No redirects: a hook goes where it says.
 */
export async function runHttpHook(url: string, input: string, options: { timeoutMs: number; signal?: AbortSignal; hostAllowed: (url: URL) => boolean }): Promise<CommandOutcome> {
  const target = new URL(url);
  if (!options.hostAllowed(target)) return { exitCode: null, stdout: '', stderr: '', failure: 'not_started', reason: `${target.host} is not an allowed host (Settings → Hosts and folders)` };
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
  try {
    const response = await fetch(target, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: input, redirect: 'error', signal: AbortSignal.any(signals) });
    // The body up to the limit a hook's output has; the rest is not read.
    const { text: body } = await readUpTo(response, HOOK_OUTPUT_LIMIT);
    return response.ok ? { exitCode: 0, stdout: body, stderr: '' } : { exitCode: 1, stdout: '', stderr: `HTTP ${response.status}${body ? `: ${body.slice(0, 500)}` : ''}` };
  } catch (error) {
    if (options.signal?.aborted) return { exitCode: null, stdout: '', stderr: '', failure: 'cancelled' };
    if ((error as Error).name === 'TimeoutError') return { exitCode: null, stdout: '', stderr: '', failure: 'timeout' };
    return { exitCode: null, stdout: '', stderr: '', failure: 'not_started', reason: (error as Error).message };
  }
}
