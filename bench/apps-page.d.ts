// Types of the page-side functions in apps-page.js.
export function watchAppFrames(): void;
export function takeAppFrameTimes(): number[];
export function firstPaintAt(): Promise<number>;
export function insertPlainFrame(options: { url: string; sandbox: string | null }): number;
export function scrollThrough(options: { selector: string | null; step: number }): Promise<number>;
export function watchToolCardsForTwin(): void;
export function takeTwinTimes(): number[];
export function armTwin(url: string): void;
