// Types of the page-side functions in apps-page.js.
export function firstPaintAt(): Promise<number>;
export function insertPlainFrame(options: { url: string; sandbox: string | null }): number;
export function scrollThrough(options: { selector: string | null; step: number }): Promise<number>;
export function watchToolCards(): void;
export function takeCardTimes(): number[];
export function armTwin(url: string): void;
