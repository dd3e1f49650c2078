import { randomInt } from 'node:crypto';
import { jsonValueProblem, MAX_JSON_DEPTH } from '../../common/json-limits.js';

/**
 * The number put between the events of one batch. Nine digits, so V8 reads it
 * on its small-integer path; drawn once a process and never sent anywhere, so
 * no server can know to write it into an event (the proof in `parsedTogether` rests on that).
 */
const SEPARATOR = randomInt(100_000_000, 1_000_000_000);

/**
 * The data of events that arrived together, each JSON-parsed where it is JSON
 * (no deeper than any value Toolbelt takes), else kept as its text.
 *
 * Several events are parsed in one `JSON.parse`: with a call per event, a
 * stream of 200 small records cost 1.15× the same data as one JSON answer
 * (each call has its own fixed cost); parsed together, 1.05×.
 * The result is the same as parsing each alone, or the batch is not used
 * (see `parsedTogether`).
 */
export function eventValues(datas: readonly string[]): unknown[] {
  const values = new Array<unknown>(datas.length);
  const candidates: number[] = [];
  for (let index = 0; index < datas.length; index++) {
    const data = datas[index]!;
    if (mayBeJson(data)) candidates.push(index);
    else values[index] = data;
  }
  if (candidates.length > 1 && parsedTogether(datas, candidates, values)) return values;
  for (const index of candidates) values[index] = parsedAlone(datas[index]!);
  return values;
}

/** One event's data that may be JSON, parsed where it is, else its text. */
function parsedAlone(data: string): unknown {
  try {
    return checked(data, JSON.parse(data) as unknown);
  } catch {
    return data;
  }
}

/**
 * Parses the events as one JSON array, and takes it only when it is provably
 * what parsing each alone gives; otherwise nothing is taken.
 *
 * When every event is a flat object (`{` first and `}` last, no other bracket
 * anywhere: most streams of records), they go on their own lines. A string
 * cannot run on into the next event (JSON strings hold no raw line break), so
 * an event's first `{` opens an object and its last `}` must close that one:
 * the event holds no other opening bracket, and a `}` cannot close the outer
 * array. Each is then exactly one object, parsed as it would be alone.
 *
 * Otherwise the events are parsed as `[d1,S,d2,S,…,dn]`, S the secret
 * separator, and the result is taken only when it is an array of 2n−1 items
 * with S at every odd place: every S the text holds is one of ours (no event
 * can contain it), so all n−1 of them are items of the outer array, and
 * exactly one item lies between two of them. An event that is not one value on
 * its own (`1,2`, or `[1` closed by a later `2]`) fails the parse or moves an S.
 */
function parsedTogether(datas: readonly string[], candidates: readonly number[], values: unknown[]): boolean {
  const flat = candidates.every((index) => isFlatObject(datas[index]!));
  const joiner = flat ? '\n,' : `,${SEPARATOR},`;
  let text = '[';
  for (let at = 0; at < candidates.length; at++) text += at === 0 ? datas[candidates[at]!]! : joiner + datas[candidates[at]!]!;
  let parsed: unknown;
  try {
    parsed = JSON.parse(`${text}]`);
  } catch {
    return false;
  }
  const step = flat ? 1 : 2;
  if (!Array.isArray(parsed) || parsed.length !== (candidates.length - 1) * step + 1) return false;
  if (!flat) for (let at = 1; at < parsed.length; at += 2) if (parsed[at] !== SEPARATOR) return false;
  for (let at = 0; at < candidates.length; at++) {
    const index = candidates[at]!;
    values[index] = checked(datas[index]!, parsed[at * step]);
  }
  return true;
}

/** `{` first, `}` last, and no other bracket (in a string or not): two searches in native code. */
function isFlatObject(data: string): boolean {
  return data.charCodeAt(0) === 0x7b && data.charCodeAt(data.length - 1) === 0x7d && data.indexOf('{', 1) === -1 && data.indexOf('[') === -1;
}

/** Nesting past the limit takes at least as many brackets: a shorter event cannot have it (most are). */
function checked(data: string, parsed: unknown): unknown {
  return data.length > MAX_JSON_DEPTH && jsonValueProblem(parsed, { text: false }) ? data : parsed;
}

/** Whether text could be JSON, by its first character past white space: most events are one or the other at a glance. */
function mayBeJson(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) continue;
    // { [ " - 0-9 t f n
    return code === 0x7b || code === 0x5b || code === 0x22 || code === 0x2d || (code >= 0x30 && code <= 0x39) || code === 0x74 || code === 0x66 || code === 0x6e;
  }
  return false;
}
