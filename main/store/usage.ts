import { rm } from 'node:fs/promises';
import type { Usage } from '../../shared/schemas/tool.js';
import type { Logger } from '../log.js';
import { makePrivateFolder, readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import type { StoreLayout } from './layout.js';
import { forEachLimited, listToolFolder } from './records.js';

const EMPTY: Usage = { callCount: 0 };
const USAGE_WRITE_DELAY_MS = 250;

/**
 * lastCalledAt and callCount per tool, kept apart from tool.json (calls are
 * not edits) and written after the call has answered, coalescing bursts.
 */
export class UsageBook {
  private readonly usage = new Map<string, { callCount: number; lastCalledAt?: string | Date }>();
  private readonly pending = new Set<string>();
  private flushing: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly layout: StoreLayout,
    private readonly log: Logger,
  ) {}

  async load(): Promise<void> {
    // Usage files are named after their tools, like tool files.
    const { toolIDs: ids } = await listToolFolder(this.layout.usageDir);
    await forEachLimited(ids, 32, async (toolID) => {
      const read = await readJsonFile(this.layout.usageFile(toolID));
      if (!read.ok) return;
      const value = read.value as Partial<Usage>;
      if (typeof value?.callCount === 'number' && value.callCount >= 0) {
        this.usage.set(toolID, {
          callCount: Math.floor(value.callCount),
          ...(typeof value.lastCalledAt === 'string' ? { lastCalledAt: value.lastCalledAt } : {}),
        });
      }
    });
  }

  get(toolID: string): Usage {
    const usage = this.usage.get(toolID);
    if (!usage) return EMPTY;
    // Formatting a date costs more than the rest of counting a call: it is done when someone reads it.
    if (usage.lastCalledAt instanceof Date) usage.lastCalledAt = usage.lastCalledAt.toISOString();
    return usage as Usage;
  }

  /** Counts a call now; the file follows shortly, off the caller's path. */
  record(toolID: string, at: Date): void {
    const previous = this.usage.get(toolID);
    this.usage.set(toolID, { callCount: (previous?.callCount ?? 0) + 1, lastCalledAt: at });
    this.pending.add(toolID);
    this.flushing ??= this.flushSoon();
  }

  /** Bursts of calls share one write per tool. */
  private flushSoon(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, USAGE_WRITE_DELAY_MS);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).then(() => {
      this.wake = null;
      return this.flushNow();
    });
  }

  async forget(toolID: string): Promise<void> {
    this.usage.delete(toolID);
    this.pending.delete(toolID);
    await rm(this.layout.usageFile(toolID), { force: true });
  }

  /** Writes everything recorded so far, now; the store calls it on close. */
  async flush(): Promise<void> {
    while (this.flushing) {
      this.wake?.();
      await this.flushing;
    }
    if (this.pending.size > 0) await this.flushNow();
  }

  private async flushNow(): Promise<void> {
    const ids = [...this.pending];
    this.pending.clear();
    try {
      await makePrivateFolder(this.layout.usageDir);
      await forEachLimited(ids, 8, async (toolID) => {
        if (!this.usage.has(toolID)) return;
        const usage = this.get(toolID);
        await writeFileAtomically(this.layout.usageFile(toolID), stringifyStable({ ...usage }, ['callCount', 'lastCalledAt']), { within: this.layout.root });
      });
    } catch (error) {
      this.log.warn('could not save usage metrics', { error: String(error) });
    } finally {
      this.flushing = this.pending.size > 0 ? this.flushSoon() : null;
    }
  }
}
