import { wakeableDelay } from '../common/wakeable-delay.js';
import { rm } from 'node:fs/promises';
import type { Usage } from '../../shared/schemas/tool.js';
import type { Logger } from '../log.js';
import type { Clock } from '../common/clock.js';
import { makePrivateFolder, readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import type { StoreLayout } from './layout.js';
import { forEachLimited, listToolFolder } from './records.js';
import { addCall, figuresOf, HOURS_KEPT, readHours, type CallFigures, type CallHour } from './call-metrics.js';

const EMPTY: Usage = { callCount: 0 };
const USAGE_WRITE_DELAY_MS = 250;

/**
 * lastCalledAt and callCount per tool, and its calls hour by hour over the
 * last week, kept apart from tool.json (calls are not edits) and written
 * after the call has answered, coalescing bursts.
 */
export class UsageBook {
  private readonly usage = new Map<string, { callCount: number; lastCalledAt?: string | Date }>();
  /** Each tool's calls hour by hour over the last week (`call-metrics.ts`), kept in the same file. */
  private readonly hours = new Map<string, CallHour[]>();
  private readonly pending = new Set<string>();
  private flushing: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly layout: StoreLayout,
    private readonly log: Logger,
    private readonly clock: Clock,
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
        const hours = readHours((value as { hours?: unknown }).hours);
        if (hours.length > 0) this.hours.set(toolID, hours);
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

  /** Its calls, failures and times over the last day and week, up to now. */
  figures(toolID: string): { day: CallFigures; week: CallFigures } {
    const hours = this.hours.get(toolID) ?? [];
    const now = this.clock.now();
    return { day: figuresOf(hours, now, 24), week: figuresOf(hours, now, HOURS_KEPT) };
  }

  /** Counts a call now (with how it went, when known); the file follows shortly, off the caller's path. */
  record(toolID: string, at: Date, outcome?: { ok: boolean; durationMs: number }): void {
    const previous = this.usage.get(toolID);
    this.usage.set(toolID, { callCount: (previous?.callCount ?? 0) + 1, lastCalledAt: at });
    if (outcome) this.hours.set(toolID, addCall(this.hours.get(toolID) ?? [], at, outcome.ok, outcome.durationMs));
    this.pending.add(toolID);
    this.flushing ??= this.flushSoon();
  }

  /** Bursts of calls share one write per tool. */
  private flushSoon(): Promise<void> {
    const delay = wakeableDelay(USAGE_WRITE_DELAY_MS);
    this.wake = delay.wake;
    return delay.elapsed.then(() => {
      this.wake = null;
      return this.flushNow();
    });
  }

  async forget(toolID: string): Promise<void> {
    this.usage.delete(toolID);
    this.hours.delete(toolID);
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
        const hours = this.hours.get(toolID);
        await writeFileAtomically(this.layout.usageFile(toolID), stringifyStable({ ...usage, ...(hours?.length ? { hours } : {}) }, ['callCount', 'lastCalledAt', 'hours']), { within: this.layout.root });
      });
    } catch (error) {
      this.log.warn('could not save usage metrics', { error: String(error) });
    } finally {
      this.flushing = this.pending.size > 0 ? this.flushSoon() : null;
    }
  }
}
