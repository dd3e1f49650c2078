/**
 * Local tools are TypeScript functions shipped with the app, found by name.
 * The store only asks whether a name exists (availability); the execution
 * layer calls them.
 */
export type LocalFunction = (args: Record<string, unknown>, context: LocalFunctionContext) => unknown;

export interface LocalFunctionContext {
  signal: AbortSignal;
}

export interface LocalFunctionRegistry {
  has(name: string): boolean;
  get(name: string): LocalFunction | undefined;
  names(): string[];
}

export function createLocalRegistry(functions: Record<string, LocalFunction> = {}): LocalFunctionRegistry {
  const table = new Map(Object.entries(functions));
  return {
    has: (name) => table.has(name),
    get: (name) => table.get(name),
    names: () => [...table.keys()].sort(),
  };
}
