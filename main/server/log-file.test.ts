import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { openLogFile } from './log-file.js';

describe('the log file', () => {
  it('appends lines, owner-only, and moves a full file aside so it never grows without bound', async () => {
    const file = path.join(await tempDirForTest(), 'logs', 'host.log');
    const log = openLogFile(file, { limitBytes: 100 });
    for (let line = 0; line < 12; line++) log.write(JSON.stringify({ line }));
    log.close();
    const current = await readFile(file, 'utf8');
    const previous = await readFile(`${file}.1`, 'utf8');
    expect(current.length).toBeLessThan(100);
    expect(previous.length).toBeGreaterThanOrEqual(100);
    expect(`${previous}${current}`.trim().split('\n').at(-1)).toBe('{"line":11}');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('says once on stderr when the file cannot be written, and writes the lines there instead', async () => {
    const folder = await tempDirForTest();
    await mkdir(path.join(folder, 'host.log'));
    const said: string[] = [];
    const log = openLogFile(path.join(folder, 'host.log'), { stderr: (text) => said.push(text) });
    log.write('{"a":1}');
    log.write('{"b":2}');
    expect(said.filter((text) => text.startsWith('Toolbelt cannot write its log'))).toHaveLength(1);
    expect(said[0]).toContain('EISDIR');
    expect(said.slice(1)).toEqual(['{"a":1}\n', '{"b":2}\n']);
  });

  it('keeps an existing file and adds to it', async () => {
    const file = path.join(await tempDirForTest(), 'host.log');
    await writeFile(file, '{"old":true}\n');
    const log = openLogFile(file);
    log.write('{"new":true}');
    log.close();
    expect(await readFile(file, 'utf8')).toBe('{"old":true}\n{"new":true}\n');
  });
});
