export const CHROMIUM_ARGS: string[];
export function findChromium(env?: NodeJS.ProcessEnv): string | null;
