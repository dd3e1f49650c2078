import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../shared/events.js';
import { buildMcpBundle } from '../testing/mcpb/build-bundle.js';
import { startTestCore } from '../testing/harness/test-core.js';
import { tempDirForTest } from '../testing/harness/test-temp-dir.js';
import { openInWindow } from '../main/core/open-request.js';
import { openRequestOf } from './links.js';

describe('what the desktop app is opened with reaches the window', () => {
  it('a second launch with a link and a bundle: the link as it is, the bundle previewed, a missing file said', async () => {
    const work = await tempDirForTest();
    const { core } = await startTestCore();
    const { file } = await buildMcpBundle(work);
    const seen: CoreEvent[] = [];
    core.events.subscribe((event) => seen.push(event));
    const argv = ['/opt/Toolbelt/toolbelt', '--no-sandbox', 'toolbelt://chat/new?q=hello', file, path.join(work, 'gone.mcpb')];
    await openInWindow(core, openRequestOf(argv));
    const opened = seen.filter((event) => event.type === 'app.opened');
    expect(opened[0]).toEqual({ type: 'app.opened', link: 'toolbelt://chat/new?q=hello' });
    expect(opened[1]).toMatchObject({ type: 'app.opened', mcpbPreview: { manifest: { name: 'greeter' }, installable: true } });
    const problem = opened[2]?.type === 'app.opened' ? opened[2].problem : undefined;
    expect(problem?.code).toBe('file_invalid');
    expect(problem?.message).toContain('gone.mcpb');
    // Nothing was installed or run.
    expect((await core.dispatcher.call('mcpServers.list', {}, { transport: 'internal' }))).toEqual({ servers: [] });
  });
});
