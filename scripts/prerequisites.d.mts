export function hasHttpbin(): boolean;
export function prerequisitesLine(found: { chromium: string | null; httpbin: boolean; requireE2E: boolean }): string;
export function checkPrerequisites(env?: NodeJS.ProcessEnv): string;
