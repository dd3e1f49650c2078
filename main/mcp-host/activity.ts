import path from 'node:path';
import type { McpActivity } from '../../shared/schemas/mcp-share.js';
import { inBackground } from '../common/background.js';
import { withFileLock } from '../common/file-lock.js';
import { readJsonFile, stringifyStable, writeFileAtomically } from '../common/json-files.js';
import { createAjv, type Validator } from '../common/validation.js';
import { McpActivitySchema } from '../../shared/schemas/mcp-share.js';
import type { Logger } from '../log.js';
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
  /** Counts batches moved from the waiting list into the file. */
  private batchesWritten = 0;
  private readonly valid: Validator;

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
    if (this.writing) return;
    this.writing = new Promise<void>((resolve) => setTimeout(resolve, WRITE_DELAY_MS).unref()).then(() => this.writeNow());
    inBackground(this.writing, (error) => this.log.warn('MCP activity could not be saved', { error: String(error) }));
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
    while (this.writing) await this.writing.catch(() => undefined);
  }

  private async writeNow(): Promise<void> {
    try {
      while (this.pending.length) {
        // A copy: calls recorded while this batch is written join the waiting list, not this batch, whose length
        // says how many to take off the list afterwards.
        const batch = this.pending.slice();
        await withFileLock(this.layout.lockTarget('mcp-activity'), async () => {
          const calls = [...(await this.readFile()), ...batch].slice(-ACTIVITY_KEPT);
          await writeFileAtomically(this.file, stringifyStable({ calls }, ['calls']), { within: this.layout.root });
          // At once: a reader between the write and here would see the batch twice, in the file and waiting.
          this.pending = this.pending.slice(batch.length);
          this.batchesWritten++;
        });
      }
    } finally {
      this.writing = null;
    }
  }

  private async readFile(): Promise<McpActivity[]> {
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
