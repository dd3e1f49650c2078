import { execFile } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { createKeyFileCipher } from './key-file-cipher.js';

async function keyPath(): Promise<string> {
  return path.join(await tempDirForTest(), 'secrets.key');
}

describe('key-file cipher (browser host)', () => {
  it('round-trips a value and never stores it in clear text', async () => {
    const file = await keyPath();
    const cipher = await createKeyFileCipher(file);
    const sealed = await cipher.encrypt('sk-live-very-secret');
    expect(sealed).not.toContain('sk-live');
    expect(await cipher.decrypt(sealed)).toBe('sk-live-very-secret');
    expect(cipher.isOsProtected).toBe(false);
  });

  it('keeps its key in a file only the owner can read, and reuses it', async () => {
    const file = await keyPath();
    const sealed = await (await createKeyFileCipher(file)).encrypt('value');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await (await createKeyFileCipher(file)).decrypt(sealed)).toBe('value');
  });

  it('detects tampering and a replaced key with a clear message', async () => {
    const file = await keyPath();
    const cipher = await createKeyFileCipher(file);
    const sealed = await cipher.encrypt('value');
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    await expect(cipher.decrypt(flipped)).rejects.toThrow(/could not be decrypted/);

    const other = await createKeyFileCipher(await keyPath());
    await expect(other.decrypt(sealed)).rejects.toThrow(/Set the secret again/);
  });

  it('refuses a damaged key file instead of making a new key silently', async () => {
    const file = await keyPath();
    await writeFile(file, 'short\n');
    await expect(createKeyFileCipher(file)).rejects.toThrow(/damaged/);
    expect(await readFile(file, 'utf8')).toBe('short\n');
  });
});

describe('key file creation', () => {
  it('gives processes that start together one shared, whole key', async () => {
    const file = await keyPath();
    // Real processes, racing to create the key in the same place.
    const script = `import { createKeyFileCipher } from ${JSON.stringify(path.resolve('main/secrets/key-file-cipher.ts'))};
      const cipher = await createKeyFileCipher(process.argv[1]);
      process.stdout.write(await cipher.encrypt('shared'));`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, file], (error, stdout, stderr) =>
          error ? reject(new Error(stderr || error.message)) : resolve(stdout),
        );
      });
    const sealed = await Promise.all(Array.from({ length: 6 }, run));
    const cipher = await createKeyFileCipher(file);
    for (const value of sealed) expect(await cipher.decrypt(value)).toBe('shared');
    expect((await readdir(path.dirname(file))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
