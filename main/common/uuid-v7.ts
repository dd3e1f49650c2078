import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * Random bytes for ids, drawn a few kilobytes at a time. The uuid package
 * draws 16 bytes from the system for every id; in a busy MCP server that one
 * draw cost a call ~2 % (npm run bench -- mcp-server), as Node's own
 * randomUUID found, which pools the same way.
 */
const POOL = new Uint8Array(4096);
let used = POOL.length;

/** The last id's time and counter: ids made within one millisecond count up from a random start, as the uuid package's do. */
let lastMsecs = -Infinity;
let sequence = 0;

/** A new RFC 9562 version 7 UUID: ids made one after another sort in the order they were made. */
export function newUuidV7(now: number = Date.now()): string {
  if (used + 16 > POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  const random = POOL.subarray(used, (used += 16));
  if (now > lastMsecs) {
    lastMsecs = now;
    // 31 random bits, the top one clear, so a millisecond has room to count up.
    sequence = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    sequence = (sequence + 1) | 0;
    // The counter ran over (or the clock went back): the id moves on a millisecond, still after the last.
    if (sequence === 0) lastMsecs++;
  }
  return v7({ random, msecs: lastMsecs, seq: sequence });
}
