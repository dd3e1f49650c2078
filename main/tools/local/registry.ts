import type { Logger } from '../../log.js';
import type { CallQuestion } from '../../../shared/schemas/chat.js';

/** What a local function may use besides its arguments. */
export interface LocalFunctionContext {
  signal: AbortSignal;
  log: Logger;
  now: () => Date;
  /** A secret's value, for functions that call services themselves. */
  secret: (name: string) => Promise<string | null>;
  /** Folders the person allowed tools to read (Settings). */
  readableFolders: readonly string[];
  /** Present inside a chat run: asks the person and waits for the answer. */
  askUser?: (question: string, choices?: string[]) => Promise<string>;
  /** Present inside a chat that finds its tools by search: the best matches among the tools it has not offered yet, which are then offered from its next turn. */
  searchTools?: (query: string, limit: number) => Promise<FoundTool[]>;
}

/** A tool found by tool search, as the model reads it. */
export interface FoundTool {
  /** The name to call it by. */
  name: string;
  description: string;
  bundle: string;
}

/**
 * Local tools are TypeScript functions shipped with the app, found by name.
 * A thrown Error becomes a `local_error` result with its message.
 */
export type LocalFunction = ((args: Record<string, unknown>, context: LocalFunctionContext) => unknown) & {
  /** A function that begins by asking the person: the question, so the caller can wait for the answer before it runs. */
  question?: (args: Record<string, unknown>) => CallQuestion;
};

export interface LocalFunctionRegistry {
  has(name: string): boolean;
  get(name: string): LocalFunction | undefined;
}

export function createLocalRegistry(functions: Record<string, LocalFunction> = {}): LocalFunctionRegistry {
  const table = new Map(Object.entries(functions));
  return {
    has: (name) => table.has(name),
    get: (name) => table.get(name),
  };
}
