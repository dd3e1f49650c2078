// Types of the page-side functions in ui-page.js (see there why they are JavaScript).
export function watchLongTasks(): void;
export function takeLongestTask(): number;
export function armStreamWatch(lastWord: string): void;
export function streamEnded(): Promise<string>;
export function streamToPlainElement(url: string): Promise<number>;
export function fetchAndParse(url: string): Promise<void>;
export function armPaletteStopwatch(): void;
export function readPaletteStopwatch(): Promise<number>;
export function timeApiGet(request: { url: string; token: string }): Promise<number>;
export function timeChatOpen(request: { title: string; text: string }): Promise<number>;
export function armKeyTiming(): void;
export function takeKeyTimings(expected: number): Promise<{ processing: number; frame: number }[]>;
export function makeNoisyPhoto(size: { width: number; height: number; leastBytes: number }): Promise<number>;
export function pasteTimed(): Promise<number>;
export function decodeTimed(): Promise<number>;
export function armEventWatch(): void;
export function takeEventDelays(): number[];
export function rawEventDelays(url: string): Promise<number[]>;
