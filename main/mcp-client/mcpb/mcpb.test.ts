import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { signMcpbFile } from '@anthropic-ai/mcpb/node';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildMcpBundle } from '../../../testing/mcpb/build-bundle.js';
import { expectOk } from '../../../testing/harness/invoke-harness.js';
import { startTestCore } from '../../../testing/harness/test-core.js';
import { tempDirForTest } from '../../../testing/harness/test-temp-dir.js';

const asFile = (bytes: Uint8Array, name = 'greeter.mcpb') => ({ file: { name, dataBase64: Buffer.from(bytes).toString('base64') } });
const manifestOnly = (manifest: unknown, more: Record<string, Uint8Array> = {}) => zipSync({ 'manifest.json': strToU8(JSON.stringify(manifest)), ...more });

describe('MCP bundles (.mcpb) built by the official package', () => {
  it('previews, installs off, runs with its settings (the key a secret), updates in place and uninstalls whole', async () => {
    const work = await tempDirForTest();
    const { call, failure, dataDir } = await startTestCore();
    const v1 = await buildMcpBundle(work);

    const preview = await call('mcpb.preview', asFile(v1.bytes));
    expect(preview.manifest).toMatchObject({ name: 'greeter', displayName: 'Greeter', version: '1.0.0', author: { name: 'Toolbelt tests' }, serverType: 'node', platforms: ['darwin', 'win32', 'linux'], runtimes: { node: '>=18.0.0' } });
    expect(preview.manifest.tools).toEqual([{ name: 'whoami', description: 'Says what the settings gave it.' }]);
    expect(preview.manifest.prompts.map((prompt) => prompt.name)).toEqual(['greet']);
    expect(preview.signature.status).toBe('unsigned');
    expect(preview.installable).toBe(true);
    expect(preview.userConfig.find((field) => field.key === 'api_key')).toMatchObject({ sensitive: true, required: true });
    // ${HOME} in a default is the person's home.
    expect(preview.userConfig.find((field) => field.key === 'workdir')?.default).toMatch(/greeter$/);
    // The exact command, in the folder it will be unpacked to.
    expect(preview.plan).toMatchObject({ serverName: 'Greeter', config: { command: 'node' }, settingNames: ['API_KEY', 'GREETING', 'WORKDIR'] });
    const entry = (preview.plan.config as { args: string[] }).args[0]!;
    expect(entry.startsWith(path.join(dataDir, 'mcpb'))).toBe(true);
    expect(existsSync(entry)).toBe(false);

    // A server that takes the plan's name after the preview is not replaced: the install says so.
    const raced = await call('mcpb.preview', asFile(v1.bytes));
    await call('mcpServers.put', { name: 'Greeter', config: { command: 'node', disabled: true } });
    expect((await failure('mcpb.install', { previewId: raced.previewId, userConfig: { api_key: 'k' } })).code).toBe('conflict');
    await call('mcpServers.delete', { name: 'Greeter' });

    // A required setting left out is said by its title.
    const missing = await failure('mcpb.install', { previewId: preview.previewId, userConfig: { greeting: 'Hi' } });
    expect([missing.code, missing.message]).toEqual(['invalid_params', 'API key: this setting is required.']);
    const key = 'sk-"quoted" \'key\'';
    const off = await call('mcpb.install', { previewId: preview.previewId, userConfig: { greeting: 'Hi', api_key: key, workdir: work } });
    expect(off).toMatchObject({ name: 'Greeter', state: 'disabled' });
    expect(existsSync(entry)).toBe(true);
    // The key is a secret: mcp.json names it, never holds it.
    const configText = await readFile(path.join(dataDir, 'mcp.json'), 'utf8');
    expect(configText).toContain('${secret.MCPB_GREETER_API_KEY}');
    expect(configText).not.toContain('quoted');
    expect((await call('secrets.list', {})).secrets.map((secret) => secret.name)).toContain('MCPB_GREETER_API_KEY');

    const on = await call('mcpServers.put', { name: 'Greeter', config: { ...off.config, disabled: false } });
    expect(on.state).toBe('connected');
    const said = expectOk(await call('tools.invoke', { bundleID: on.bundleID, toolSlug: 'whoami', version: 'mcp', args: {} })).value;
    expect(JSON.parse(String(said))).toEqual({ greeting: 'Hi', keyLength: key.length, keyQuoted: true, workdir: work, cwd: path.dirname(path.dirname(entry)) });

    // A newer version of the same bundle replaces it: same server, new files, the old ones gone.
    const v2 = await buildMcpBundle(work, { version: '1.1.0' });
    const update = await call('mcpb.preview', asFile(v2.bytes));
    expect(update.plan).toMatchObject({ serverName: 'Greeter', replaces: true });
    await call('mcpb.install', { previewId: update.previewId, userConfig: { api_key: key }, enabled: true });
    expect((await call('mcpb.list', {})).installs).toMatchObject([{ serverName: 'Greeter', bundleName: 'greeter', version: '1.1.0' }]);
    expect(existsSync(entry)).toBe(false);
    const unpacked = async () => (await readdir(path.join(dataDir, 'mcpb'))).filter((name) => !name.startsWith('.'));
    expect(await unpacked()).toHaveLength(1);

    // Remove, as the person clicks it under the server, takes the bundle's files and secrets with it.
    await call('mcpServers.delete', { name: 'Greeter' });
    expect((await call('mcpb.list', {})).installs).toEqual([]);
    expect((await failure('mcpb.uninstall', { name: 'Greeter' })).code).toBe('not_found');
    expect((await call('mcpServers.list', {})).servers).toEqual([]);
    expect(await unpacked()).toEqual([]);
    expect((await call('secrets.list', {})).secrets.map((secret) => secret.name)).not.toContain('MCPB_GREETER_API_KEY');
    // A preview is used once.
    expect((await failure('mcpb.install', { previewId: update.previewId, userConfig: { api_key: key } })).code).toBe('import_preview_gone');
  });

  it('a signed bundle says who signed it; another bundle under its signature is a mismatch that cannot be installed', async () => {
    const work = await tempDirForTest();
    const { call, failure } = await startTestCore();
    const { file, bytes: unsigned } = await buildMcpBundle(work);
    const intactLength = unsigned.length;
    const cert = path.join(work, 'cert.pem');
    const key = path.join(work, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=Toolbelt Tests'], { stdio: 'ignore' });
    signMcpbFile(file, cert, key);
    const signed = await readFile(file);
    const intact = await call('mcpb.preview', asFile(signed));
    expect(intact.signature).toEqual({ status: 'self-signed', publisher: 'Toolbelt Tests', issuer: 'Toolbelt Tests' });
    expect(intact.installable).toBe(true);
    expect(intact.problems.map((problem) => [problem.level, problem.code])).toEqual([['warning', 'mcpb_signature_untrusted']]);

    // Another bundle under the first one's signature: the signature no longer matches what it signs.
    const other = await buildMcpBundle(work, { version: '6.6.6' });
    const tampered = Buffer.concat([other.bytes, signed.subarray(intactLength)]);
    const broken = await call('mcpb.preview', asFile(tampered));
    expect(broken.signature.status).toBe('mismatch');
    expect(broken.installable).toBe(false);
    expect((await failure('mcpb.install', { previewId: broken.previewId, userConfig: { api_key: 'k' } })).code).toBe('mcpb_signature_mismatch');
  });

  it('hostile bundles are refused with a reason, and nothing is written outside the data folder', async () => {
    const work = await tempDirForTest();
    const { call, failure, dataDir } = await startTestCore();
    const { bytes } = await buildMcpBundle(work);
    const valid = (await call('mcpb.preview', asFile(bytes))).manifest;
    expect(valid.name).toBe('greeter');
    const manifest = JSON.parse(JSON.stringify({
      manifest_version: '0.3', name: 'evil', version: '1.0.0', description: 'x', author: { name: 'x' },
      server: { type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'] } },
    })) as Record<string, unknown>;
    const script = strToU8('console.log(1)');
    const refusals: [string, Uint8Array, RegExp][] = [
      ['zip slip', manifestOnly(manifest, { '../escaped.js': script, 'server/index.js': script }), /outside the bundle/],
      ['absolute path', manifestOnly(manifest, { '/tmp/escaped.js': script }), /outside the bundle/],
      ['a Windows drive', manifestOnly(manifest, { 'C:/escaped.js': script }), /outside the bundle/],
      ['backslashes', manifestOnly(manifest, { '..\\escaped.js': script }), /outside the bundle/],
      ['not a zip', strToU8('<html>not a bundle</html>'), /not a readable \.zip/],
      ['no manifest', zipSync({ 'server/index.js': script }), /no manifest\.json/],
      ['manifest not JSON', zipSync({ 'manifest.json': strToU8('{ nope') }), /not JSON/],
      ['manifest fails the schema', manifestOnly({ ...manifest, server: { type: 'rust' } }), /does not follow the MCP bundle format/],
      ['a setting named like a pattern', manifestOnly({ ...manifest, user_config: { 'a.*(b)': { type: 'string', title: 't', description: 'd' } } }), /letters, digits/],
    ];
    for (const [why, zip, message] of refusals) {
      const error = await failure('mcpb.preview', asFile(zip));
      expect(error.code, why).toBe('mcpb_invalid');
      expect(error.message, why).toMatch(message);
    }

    // 100,000 entries: refused at the limit, not read to the end.
    const many: Record<string, Uint8Array> = { 'manifest.json': strToU8(JSON.stringify(manifest)) };
    for (let i = 0; i < 100_000; i++) many[`f/${i}`] = new Uint8Array(0);
    expect((await failure('mcpb.preview', asFile(zipSync(many, { level: 0 })))).message).toMatch(/more than 20000 entries/);

    // A file that says it is 4 GB unpacked (its sizes rewritten in both headers).
    const huge = Buffer.from(manifestOnly(manifest, { 'big.bin': new Uint8Array(16) }));
    for (let at = huge.indexOf('PK\x01\x02'); at !== -1; at = huge.indexOf('PK\x01\x02', at + 4)) huge.writeUInt32LE(0xfffffff0, at + 24);
    for (let at = huge.indexOf('PK\x03\x04'); at !== -1; at = huge.indexOf('PK\x03\x04', at + 4)) huge.writeUInt32LE(0xfffffff0, at + 22);
    expect((await failure('mcpb.preview', asFile(huge))).code).toBe('mcpb_invalid');

    // Readable, but not installable: the reason is in the preview, and install says it again.
    const blocked: [string, Record<string, unknown>, Record<string, Uint8Array>, string][] = [
      ['missing entry point', manifest, {}, 'mcpb_invalid'],
      ['another system', { ...manifest, compatibility: { platforms: ['win32'] } }, { 'server/index.js': script }, 'mcpb_unsupported'],
      [
        "the person's secret",
        { ...manifest, server: { type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'], env: { TOKEN: '${GITHUB_TOKEN}', KEY: '${secret.OPENAI_API_KEY}' } } } },
        { 'server/index.js': script },
        'install_names_secret',
      ],
    ];
    for (const [why, body, files, code] of blocked) {
      const preview = await call('mcpb.preview', asFile(manifestOnly(body, files)));
      expect(preview.installable, why).toBe(false);
      expect(preview.problems.map((problem) => problem.code), why).toContain(code);
      expect((await failure('mcpb.install', { previewId: preview.previewId })).code, why).toBe(code);
    }
    expect(existsSync(path.join(path.dirname(dataDir), 'escaped.js'))).toBe(false);
    expect((await call('mcpServers.list', {})).servers).toEqual([]);
  });

  it('a symbolic link in a bundle is unpacked as a plain file holding its target, never as a link', async () => {
    const { call, dataDir } = await startTestCore();
    const manifest = { manifest_version: '0.3', name: 'linker', version: '1.0.0', description: 'x', author: { name: 'x' }, server: { type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'] } } };
    // An entry whose Unix mode says "symbolic link" (0o120777 in the high half of its external attributes), pointing at /etc/passwd.
    const zip = zipSync({ 'manifest.json': strToU8(JSON.stringify(manifest)), 'server/index.js': strToU8('1'), 'server/passwd': [strToU8('/etc/passwd'), { os: 3, attrs: 0o120777 << 16 }] });
    const preview = await call('mcpb.preview', asFile(zip, 'linker.mcpb'));
    await call('mcpb.install', { previewId: preview.previewId });
    const folder = path.join(dataDir, 'mcpb', (await call('mcpb.list', {})).installs[0]!.folder);
    const unpacked = path.join(folder, 'server', 'passwd');
    expect((await lstat(unpacked)).isSymbolicLink()).toBe(false);
    expect(await readFile(unpacked, 'utf8')).toBe('/etc/passwd');
  });

  it('a crash between unpacking and saving leaves nothing behind at the next start', async () => {
    const first = await startTestCore();
    const orphan = path.join(first.dataDir, 'mcpb', 'greeter-deadbeef');
    await first.reopen(async () => {
      await mkdir(orphan, { recursive: true });
      await writeFile(path.join(orphan, 'half.js'), 'x');
    });
    expect(existsSync(orphan)).toBe(false);
  });
});
