// Runs before every test file. A promise that rejects with nobody listening
// is a crash in a real host (Node exits on it); here it fails the test that
// left it behind, by name, rather than a line in the run's summary.
import { afterEach } from 'vitest';

interface RejectionTrap {
  caught: unknown[];
}

const key = Symbol.for('toolbelt.test.unhandledRejections');
const global = globalThis as typeof globalThis & { [key]?: RejectionTrap };
const trap: RejectionTrap = (global[key] ??= (() => {
  const created: RejectionTrap = { caught: [] };
  process.on('unhandledRejection', (reason) => created.caught.push(reason));
  return created;
})());

afterEach(async () => {
  // Node reports an unhandled rejection after the microtask queue drains.
  await new Promise((resolve) => setImmediate(resolve));
  const caught = trap.caught.splice(0);
  if (caught.length > 0) {
    const first = caught[0] instanceof Error ? (caught[0].stack ?? caught[0].message) : String(caught[0]);
    throw new Error(`This test left ${caught.length} unhandled promise rejection(s) behind; the first:\n${first}`);
  }
});
