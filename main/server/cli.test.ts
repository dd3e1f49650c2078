import net from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawnHost, type SpawnedHost } from '../../testing/cores/spawned-host.js';
import { tempDirForTest as tempDataDir } from '../../testing/harness/test-temp-dir.js';

/** Kills the host at the end of the test if the test did not stop it. */
function track(host: SpawnedHost): SpawnedHost {
  onTestFinished(() => {
    if (host.child.exitCode === null && host.child.signalCode === null) host.child.kill('SIGKILL');
  });
  return host;
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Opens the event stream and resolves `ended` when the host closes it. */
async function openEventStream(host: SpawnedHost) {
  const response = await fetch(`${host.base}/api/events`, { headers: { Authorization: `Bearer ${host.token}` } });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  await reader.read();
  const ended = (async () => {
    for (;;) {
      try {
        if ((await reader.read()).done) return 'closed';
      } catch {
        return 'closed';
      }
    }
  })();
  return { ended };
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('npm run serve', () => {
  it('prints exactly one line with the URL and honours --port and --token', async () => {
    const dataDir = await tempDataDir();
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const freePort = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const token = 'my-chosen-token-1234';
    const host = track(await spawnHost(['--data-dir', dataDir, '--port', String(freePort), '--token', token]));
    expect(host.port).toBe(freePort);
    expect(host.token).toBe(token);
    expect(host.stdout().trim().split('\n')).toHaveLength(1);
    const info = await fetch(`${host.base}/api/app/info`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await info.json()).toMatchObject({ dataDir, hostKind: 'browser' });
  });

  it('makes a random token when none is given', async () => {
    const first = track(await spawnHost(['--data-dir', await tempDataDir()]));
    const second = track(await spawnHost(['--data-dir', await tempDataDir()]));
    expect(first.token.length).toBeGreaterThanOrEqual(24);
    expect(first.token).not.toBe(second.token);
  });

  it('explains a bad option and exits with 2', async () => {
    await expect(spawnHost(['--port', 'eighty'])).rejects.toThrow(/exited with 2[\s\S]*--port must be a whole number/);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`stops cleanly on ${signal}: streams closed, port released, exit 0`, async () => {
      const host = track(await spawnHost(['--data-dir', await tempDataDir()]));
      const stream = await openEventStream(host);
      host.child.kill(signal);
      expect(await within(host.exited, 4_000, 'shutdown')).toEqual({ code: 0, signal: null });
      expect(await within(stream.ended, 1_000, 'closing the event stream')).toBe('closed');
      expect(await isListening(host.port)).toBe(false);
    });
  }

  it('stops on Ctrl+C through npm run (SIGINT to the whole process group)', async () => {
    const host = track(
      await spawnHost(['--data-dir', await tempDataDir()], {
        command: ['npm', 'run', '--silent', 'serve', '--'],
        detached: true,
      }),
    );
    const stream = await openEventStream(host);
    process.kill(-host.child.pid!, 'SIGINT');
    // npm itself dies of the SIGINT; the host under it (signalled twice: the
    // group's SIGINT and npm's forward) must still close everything.
    await within(host.exited, 5_000, 'npm run serve shutdown');
    expect(await within(stream.ended, 1_000, 'closing the event stream')).toBe('closed');
    expect(await isListening(host.port)).toBe(false);
    // Nothing of the group is left running.
    expect(() => process.kill(-host.child.pid!, 0)).toThrow();
  });
});

describe('signals during shutdown', () => {
  it('a repeated signal right away (npm forwarding Ctrl+C) does not turn a clean stop into a crash', async () => {
    const host = track(await spawnHost(['--data-dir', await tempDataDir()]));
    host.child.kill('SIGINT');
    host.child.kill('SIGINT');
    expect(await within(host.exited, 4_000, 'shutdown')).toEqual({ code: 0, signal: null });
  });
});
