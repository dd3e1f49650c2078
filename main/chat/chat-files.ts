import type { Hooks } from '../../shared/schemas/hooks.js';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolbeltError } from '../../shared/errors.js';
import { ChatSchema, type Chat, type ChatSummary } from '../../shared/schemas/chat.js';
import type { SalvagedChat } from '../../shared/schemas/salvaged-chat.js';
import { salvageChat } from './chat-salvage.js';
import type { FileProblem } from '../../shared/schemas/file-problem.js';
import { compileOnFirstUse, describeIssues, issuesFrom } from '../common/validation.js';
import type { Logger } from '../log.js';
import { readJsonFile, stringifyStable, writeFileAtomicallyMakingFolders } from '../common/json-files.js';

const CHAT_KEY_ORDER = [
  'id', 'title', 'providerId', 'model', 'system', 'tools', 'maxTurns', 'onToolError', 'toolErrorLimit', 'toolRuns', 'parallelToolCalls', 'temperature', 'answerSchema',
  'status', 'pending', 'run', 'lastRun', 'pinned', 'alwaysAllowed', 'createdAt', 'updatedAt', 'messages',
];

export function summaryOf(chat: Chat): ChatSummary {
  return {
    id: chat.id,
    title: chat.title,
    providerId: chat.providerId,
    model: chat.model,
    status: chat.status,
    messageCount: chat.messages.length,
    pinned: chat.pinned === true,
    createdAt: chat.createdAt,
    updatedAt: chat.updatedAt,
  };
}

/**
 * Chats as files, <dataDir>/chats/<chatID>.json, held in memory while the
 * core runs. Writes of one chat go one after another, and a burst of
 * changes is written once, with the latest state. A file that does not
 * parse or validate is reported and left alone.
 *
 * Another Toolbelt process may share the folder (the desktop app and a
 * browser host, say): a chat is read again when its file changed since this
 * process last read or wrote it, unless this process is running it.
 */
export class ChatFiles {
  private readonly chats = new Map<string, Chat>();
  /** mtime of each file as this process last read or wrote it. */
  private readonly seen = new Map<string, number>();
  private readonly owned = new Set<string>();
  /** Chat files that cannot be read or do not hold a chat: listed with the reason, never rewritten. */
  private readonly invalid = new Map<string, FileProblem>();
  /** Chats whose last write failed: memory holds what the disk lacks, so the file is not read back or taken as deleted. */
  private readonly unsaved = new Set<string>();
  private readonly writes = new Map<string, { running: Promise<void>; again: boolean }>();
  private readonly validate = compileOnFirstUse(ChatSchema, { strict: false });

  private readonly folder: string;

  private constructor(
    private readonly dataDir: string,
    private readonly log: Logger,
  ) {
    this.folder = path.join(dataDir, 'chats');
  }

  static async open(dataDir: string, log: Logger): Promise<ChatFiles> {
    const files = new ChatFiles(dataDir, log);
    await files.refreshAll();
    return files;
  }

  /** Every chat, with the files other processes added, changed or removed since the last look. */
  async all(): Promise<Chat[]> {
    await this.refreshAll();
    return [...this.chats.values()];
  }

  /** A chat's own hooks, as it is in memory now (every chat is): read at each of its tool calls, so never from disk. */
  hooksOf(chatId: string): Hooks | undefined {
    return this.chats.get(chatId)?.hooks;
  }

  /** Chats in memory as they are (for recovery at start). */
  loaded(): Chat[] {
    return [...this.chats.values()];
  }

  /** The chat as it is on disk now; not_found when it is gone. */
  async load(chatId: string): Promise<Chat> {
    if (!this.isMemoryTruth(chatId)) await this.refresh(chatId);
    return this.require(chatId);
  }

  /** The chat in memory: for code that already loaded it and runs it. */
  require(chatId: string): Chat {
    const chat = this.chats.get(chatId);
    if (chat) return chat;
    const problem = this.invalid.get(chatId);
    if (problem) throw new ToolbeltError('file_invalid', `This chat cannot be opened (${problem.file}: ${problem.reason}). Toolbelt leaves the file as it is; fix it or move it away.`, problem);
    throw new ToolbeltError('not_found', `There is no chat ${chatId}; it may have been deleted.`);
  }

  /** What can be read of a chat file that is not a valid chat, with its problem; a chat that opens is a conflict. */
  async salvage(chatId: string): Promise<{ problem: FileProblem; chat: SalvagedChat }> {
    if (!this.isMemoryTruth(chatId)) await this.refresh(chatId);
    const problem = this.invalid.get(chatId);
    if (!problem) {
      if (this.chats.has(chatId)) throw new ToolbeltError('conflict', 'This chat file is valid: open the chat itself.');
      throw new ToolbeltError('not_found', `There is no chat ${chatId}; it may have been deleted.`);
    }
    return { problem, chat: salvageChat(await readJsonFile(problem.file)) };
  }

  /** Chat files that cannot be used, with the reason (after the last look at the folder). */
  invalidFiles(): ({ id: string } & FileProblem)[] {
    return [...this.invalid].map(([id, problem]) => ({ id, ...problem })).sort((a, b) => a.id.localeCompare(b.id));
  }

  /** While a run is going here, memory is the truth and the file is not read back. */
  own(chatId: string): void {
    this.owned.add(chatId);
  }

  disown(chatId: string): void {
    this.owned.delete(chatId);
  }

  add(chat: Chat): Promise<void> {
    this.chats.set(chat.id, chat);
    return this.save(chat);
  }

  /** Writes the chat's current state soon; resolves once a write that includes it is on disk. */
  save(chat: Chat): Promise<void> {
    const pending = this.writes.get(chat.id);
    if (pending) {
      pending.again = true;
      return pending.running;
    }
    const entry = { running: Promise.resolve(), again: false };
    entry.running = (async () => {
      try {
        do {
          entry.again = false;
          if (!this.chats.has(chat.id)) return;
          try {
            await this.write(chat);
            this.unsaved.delete(chat.id);
          } catch (error) {
            this.unsaved.add(chat.id);
            throw error;
          }
        } while (entry.again);
      } finally {
        this.writes.delete(chat.id);
      }
    })();
    this.writes.set(chat.id, entry);
    return entry.running;
  }

  async remove(chatId: string): Promise<void> {
    this.chats.delete(chatId);
    this.seen.delete(chatId);
    this.unsaved.delete(chatId);
    this.invalid.delete(chatId);
    await this.writes.get(chatId)?.running.catch(() => undefined);
    await rm(this.file(chatId), { force: true });
  }

  /** Waits for every write in flight (shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.writes.values()].map((entry) => entry.running));
  }

  private isMemoryTruth(chatId: string): boolean {
    return this.owned.has(chatId) || this.unsaved.has(chatId);
  }

  private file(chatId: string): string {
    return path.join(this.folder, `${chatId}.json`);
  }

  private async write(chat: Chat): Promise<void> {
    const text = stringifyStable(chat, CHAT_KEY_ORDER);
    await writeFileAtomicallyMakingFolders(this.file(chat.id), text, { within: this.dataDir });
    const written = await stat(this.file(chat.id)).catch(() => null);
    if (written) this.seen.set(chat.id, written.mtimeMs);
  }

  /** Reads one chat again if its file changed (or appeared, or went) since this process last saw it. */
  private async refresh(chatId: string): Promise<void> {
    if (this.writes.has(chatId)) await this.writes.get(chatId)!.running.catch(() => undefined);
    const file = this.file(chatId);
    const info = await stat(file).catch(() => null);
    if (!info) {
      this.invalid.delete(chatId);
      if (this.chats.has(chatId) && this.seen.has(chatId)) {
        this.chats.delete(chatId);
        this.seen.delete(chatId);
      }
      return;
    }
    if (this.seen.get(chatId) === info.mtimeMs && (this.chats.has(chatId) || this.invalid.has(chatId))) return;
    this.seen.set(chatId, info.mtimeMs);
    const unusable = (reason: string) => {
      // Memory must not hold a copy that a later save would write over the file.
      this.chats.delete(chatId);
      this.invalid.set(chatId, { file, reason });
      this.log.warn('a chat file cannot be used; it is left as it is', { file, reason });
    };
    const read = await readJsonFile(file);
    if (!read.ok && read.text === undefined && this.chats.has(chatId)) {
      // Not bad content but no content (a folder in the way, no permission): the chat in memory is kept, and saving it says why it fails.
      return this.log.warn('a chat file cannot be read; the chat in memory is kept', { file, reason: read.reason });
    }
    if (!read.ok) return unusable(read.reason);
    if (!this.validate(read.value)) return unusable(`does not hold a valid chat: ${describeIssues(issuesFrom(this.validate.errors))}`);
    const chat = read.value as Chat;
    if (chat.id !== chatId) return unusable(`holds chat ${chat.id}, not the one its name says`);
    this.invalid.delete(chatId);
    this.chats.set(chatId, chat);
  }

  private async refreshAll(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const onDisk = names.filter((name) => /^[0-9a-f-]{36}\.json$/.test(name)).map((name) => name.slice(0, -5));
    const present = new Set(onDisk);
    for (const chatId of this.invalid.keys()) if (!present.has(chatId)) this.invalid.delete(chatId);
    for (const chatId of this.chats.keys()) {
      if (!present.has(chatId) && this.seen.has(chatId) && !this.isMemoryTruth(chatId) && !this.writes.has(chatId)) {
        this.chats.delete(chatId);
        this.seen.delete(chatId);
      }
    }
    await Promise.all(onDisk.filter((chatId) => !this.isMemoryTruth(chatId)).map((chatId) => this.refresh(chatId)));
  }
}
