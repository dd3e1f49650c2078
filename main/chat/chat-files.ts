import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ToolbeltError } from '../../shared/errors.js';
import { ChatSchema, type Chat, type ChatSummary } from '../../shared/schemas/chat.js';
import { compile, createAjv, describeIssues, issuesFrom } from '../api/validation.js';
import type { Logger } from '../log.js';
import { readJsonFile, stringifyStable, writeFileAtomically } from '../store/json-files.js';

const CHAT_KEY_ORDER = [
  'id', 'title', 'providerId', 'model', 'system', 'tools', 'maxTurns', 'onToolError', 'parallelToolCalls',
  'status', 'pending', 'run', 'lastRun', 'alwaysAllowed', 'createdAt', 'updatedAt', 'messages',
];

export function summaryOf(chat: Chat): ChatSummary {
  return {
    id: chat.id,
    title: chat.title,
    providerId: chat.providerId,
    model: chat.model,
    status: chat.status,
    messageCount: chat.messages.length,
    createdAt: chat.createdAt,
    updatedAt: chat.updatedAt,
  };
}

/**
 * Chats as files, <dataDir>/chats/<chatID>.json, held in memory while the
 * core runs. Writes of one chat go one after another, and a burst of
 * changes is written once, with the latest state. A file that does not
 * parse or validate is reported and left alone.
 */
export class ChatFiles {
  private readonly chats = new Map<string, Chat>();
  private readonly writes = new Map<string, { running: Promise<void>; again: boolean }>();
  private readonly validate = compile(createAjv({ strict: false }), ChatSchema);

  private constructor(
    private readonly folder: string,
    private readonly log: Logger,
  ) {}

  static async open(dataDir: string, log: Logger): Promise<ChatFiles> {
    const files = new ChatFiles(path.join(dataDir, 'chats'), log);
    await files.loadAll();
    return files;
  }

  all(): Chat[] {
    return [...this.chats.values()];
  }

  get(chatId: string): Chat | undefined {
    return this.chats.get(chatId);
  }

  require(chatId: string): Chat {
    const chat = this.chats.get(chatId);
    if (!chat) throw new ToolbeltError('not_found', `There is no chat ${chatId}; it may have been deleted.`);
    return chat;
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
          await this.write(chat);
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
    await this.writes.get(chatId)?.running.catch(() => undefined);
    await rm(this.file(chatId), { force: true });
  }

  /** Waits for every write in flight (shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.writes.values()].map((entry) => entry.running));
  }

  private file(chatId: string): string {
    return path.join(this.folder, `${chatId}.json`);
  }

  private async write(chat: Chat): Promise<void> {
    const text = stringifyStable(chat, CHAT_KEY_ORDER);
    try {
      await writeFileAtomically(this.file(chat.id), text, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(this.folder, { recursive: true });
      await writeFileAtomically(this.file(chat.id), text, 0o600);
    }
  }

  private async loadAll(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    await Promise.all(
      names
        .filter((name) => /^[0-9a-f-]{36}\.json$/.test(name))
        .map(async (name) => {
          const read = await readJsonFile(path.join(this.folder, name));
          if (!read.ok) return this.log.warn('a chat file cannot be read; it is left as it is', { file: name, reason: read.reason });
          if (!this.validate(read.value)) {
            const reason = describeIssues(issuesFrom(this.validate.errors));
            return this.log.warn('a chat file is invalid; it is left as it is', { file: name, reason });
          }
          const chat = read.value as Chat;
          if (`${chat.id}.json` !== name) return this.log.warn('a chat file is named after another chat; it is left as it is', { file: name });
          this.chats.set(chat.id, chat);
        }),
    );
  }
}
