import { describe, expect, it } from 'vitest';
import { startTestCore } from '../testing/harness/test-core.js';

describe('the system picker for a full path (an MCP bundle’s folder setting)', () => {
  it('the desktop app hands its dialog to the core: the path chosen, or null when closed', async () => {
    const asked: [string, string | undefined][] = [];
    const answers = ['/home/me/notes', null];
    const { call } = await startTestCore({
      pickPath: (kind, title) => {
        asked.push([kind, title]);
        return Promise.resolve(answers.shift() ?? null);
      },
    });
    expect(await call('app.pickPath', { kind: 'directory', title: 'Folder' })).toEqual({ path: '/home/me/notes' });
    expect(await call('app.pickPath', { kind: 'file' })).toEqual({ path: null });
    expect(asked).toEqual([['directory', 'Folder'], ['file', undefined]]);
  });

  it('the browser host has none, and says to type the path', async () => {
    const { failure } = await startTestCore();
    const error = await failure('app.pickPath', { kind: 'directory' });
    expect(error.code).toBe('unavailable');
    expect(error.message).toContain('type the full path');
  });
});
