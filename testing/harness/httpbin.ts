import { spawn } from 'node:child_process';

/**
 * Debian's python3-httpbin on a free loopback port (the pyenv python3 on
 * PATH lacks it, hence /usr/bin/python3). `.ci/run` installs the package.
 */
export async function startHttpbin(): Promise<{ base: string; host: string; stop: () => Promise<void> }> {
  const child = spawn('/usr/bin/python3', ['-m', 'httpbin.core', '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONWARNINGS: 'ignore' },
  });
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`httpbin did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`httpbin exited (${code}); is python3-httpbin installed (apt-get install python3-httpbin)?\n${output}`));
    });
  });
  return {
    base,
    host: base.replace('http://', ''),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
