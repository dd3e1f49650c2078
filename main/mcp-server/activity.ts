import { newUuidV7 } from '../common/uuid-v7.js';
import path from 'node:path';
import type { McpActivity } from '../../shared/schemas/mcp-share.js';
import { inBackground } from '../common/background.js';
import { fileStamp } from '../common/file-stamp.js';
import { wakeableDelay } from '../common/wakeable-delay.js';
import { withFileLock } from '../common/file-lock.js';
import { readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import { createAjv, type Validator } from '../common/validation.js';
import { McpActivitySchema } from '../../shared/schemas/mcp-share.js';
import type { Logger } from '../log.js';
import { type SessionEndReason, MAX_SESSIONS } from './http-endpoint.js';
import type { StoreLayout } from '../store/layout.js';

export const ACTIVITY_KEPT = 500;
const WRITE_DELAY_MS = 250;

/**
 * Calls MCP clients made, in <dataDir>/mcp-activity.json, newest last, the
 * last 500 kept. Written after the call has answered, bursts together, under
 * a lock: the app and the stdio command may both be serving clients.
 */
export class ActivityLog {
  private readonly file: string;
  private pending: McpActivity[] = [];
  private writing: Promise<void> | null = null;
  /** Starts the write waiting for its delay at once (flush): its timer does not keep the process alive. */
  private startNow: (() => void) | null = null;
  /** Counts batches moved from the waiting list into the file. */
  private batchesWritten = 0;
  private readonly valid: Validator;
  /**
   * The calls last read or written, with what the file was then: a busy
   * server writes a batch every quarter second, and reading and checking 500
   * calls each time cost more than the calls. Read again when another process
   * (the stdio command, the app) wrote.
   */
  private known: { stamp: string; calls: McpActivity[] } | null = null;

  constructor(
    private readonly layout: StoreLayout,
    private readonly log: Logger,
    private readonly changed: () => void,
  ) {
    this.file = path.join(layout.root, 'mcp-activity.json');
    this.valid = createAjv().compile(McpActivitySchema);
  }

  add(entry: McpActivity): void {
    this.pending.push(entry);
    this.changed();
    if (!this.writing) this.writeSoon();
  }

  /** One write a WRITE_DELAY_MS at most, whatever the pace of the calls: the burst in that time goes together. */
  private writeSoon(): void {
    const delay = wakeableDelay(WRITE_DELAY_MS);
    this.startNow = delay.wake;
    this.writing = delay.elapsed.then(() => {
      this.startNow = null;
      return this.writeNow();
    });
    inBackground(this.writing, (error) => this.log.warn('MCP activity could not be saved', { error: String(error) }));
  }

  /** A client's session Toolbelt ended, to make room for a new one or after an hour of silence: not a call, but the person should know whose. */
  sessionEnded(client: string, at: Date, why: SessionEndReason): void {
    this.add({
      id: newUuidV7(),
      at: at.toISOString(),
      client: client.slice(0, 200),
      tool: '',
      event: 'session-ended',
      args: '',
      ok: false,
      result:
        why === 'full'
          ? `Its session was ended to make room for a new one (${MAX_SESSIONS} at most, each client's own). It connects again on its next request.`
          : 'Its session was ended after an hour without a request or an open stream (it had probably left without ending it). It connects again on its next request.',
      durationMs: 0,
      approval: 'not-needed',
    });
  }

  /** Newest first. */
  async recent(limit: number): Promise<McpActivity[]> {
    for (;;) {
      const written = this.batchesWritten;
      const file = await this.readFile();
      // A batch written while the file was read may be in neither the old file nor the waiting list: read again.
      if (written !== this.batchesWritten) continue;
      // A batch the file already holds while its write is still finishing is in both: each call once.
      const inFile = new Set(file.map((call) => call.id));
      return [...file, ...this.pending.filter((call) => !inFile.has(call.id))].slice(-limit).reverse();
    }
  }

  async flush(): Promise<void> {
    while (this.writing) {
      // Not after the delay: a process closing has nothing else keeping it alive until then.
      this.startNow?.();
      await this.writing.catch(() => undefined);
    }
  }

  private async writeNow(): Promise<void> {
    let written = false;
    try {
      // A copy: calls recorded while this batch is written join the waiting list, not this batch, whose length
      // says how many to take off the list afterwards.
      const batch = this.pending.slice();
      await withFileLock(this.layout.lockTarget('mcp-activity'), async () => {
        const calls = [...(await this.readFile()), ...batch].slice(-ACTIVITY_KEPT);
        await writeFileAtomically(this.file, stringifyStable({ calls }, ['calls']), { within: this.layout.root });
        // Under the lock nobody else writes: what the file is now is what was just written.
        const stamp = fileStamp(this.file);
        this.known = stamp === null ? null : { stamp, calls };
        // At once: a reader between the write and here would see the batch twice, in the file and waiting.
        this.pending = this.pending.slice(batch.length);
        this.batchesWritten++;
      });
      written = true;
    } catch (error) {
      // The file cannot be written (a full disk, a folder in its place): the waiting calls stay shown, but no more
      // of them than the file would keep, however long the disk refuses.
      this.pending = this.pending.slice(-ACTIVITY_KEPT);
      throw error;
    } finally {
      this.writing = null;
      // Calls that came during the write wait for the next one, not written straight after: a busy client would
      // otherwise have the whole file rewritten back to back, costing its calls more than they cost themselves.
      if (written && this.pending.length > 0) this.writeSoon();
    }
  }

  /** The calls in the file; the same array while the file is unchanged, so not to be changed in place. */
  private async readFile(): Promise<McpActivity[]> {
    const stamp = fileStamp(this.file);
    if (stamp !== null && this.known?.stamp === stamp) return this.known.calls;
    // Stamped before reading: a write in between makes the next stamp differ, and the file is read again.
    const calls = await this.parseFile();
    this.known = stamp === null ? null : { stamp, calls };
    return calls;
  }

  private async parseFile(): Promise<McpActivity[]> {
    const read = await readJsonFile(this.file);
    if (!read.ok) {
      if (!read.missing) this.log.warn('mcp-activity.json cannot be read; it starts again', { reason: read.reason });
      return [];
    }
    const calls = (read.value as { calls?: unknown } | null)?.calls;
    // An entry someone broke by hand is left out, not the whole history.
    return Array.isArray(calls) ? calls.filter((entry): entry is McpActivity => this.valid(entry)) : [];
  }
}
