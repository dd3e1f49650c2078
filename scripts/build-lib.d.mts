export const ROOT: string;
export const TARGETS: string[];
export function isBuildStale(): boolean;
export function buildAll(options?: { log?: (line: string) => void }): Promise<void>;
export function ensureBuilt(options?: { log?: (line: string) => void }): Promise<void>;
