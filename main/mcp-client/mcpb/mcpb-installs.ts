import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isErrorCode, ToolbeltError } from '../../../shared/errors.js';
import type { InstallProblem, McpbInstall, McpbPreview } from '../../../shared/schemas/mcp-install.js';
import type { McpServerConfig, McpServerView } from '../../../shared/schemas/mcp.js';
import { makePrivateFolder, readJsonFile, writeFileAtomically } from '../../common/json-files.js';
import type { Clock } from '../../common/clock.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { manifestJsonOf, mcpbRefused, readMcpb, writeMcpbFiles } from './mcpb-archive.js';
import type { McpbManifest } from './mcpb-manifest.js';
import { foreignPlaceholders, planOf, serverNameFor } from '../install-plan.js';

/** The largest bundle taken (a bundle with its node_modules is tens of MB). */
export const MAX_MCPB_BYTES = 200 * 1024 * 1024;
const PREVIEW_LIFETIME_MS = 30 * 60_000;
const MAX_PREVIEWS = 8;

/** What the installer needs of the configured servers. */
export interface ServerRoster {
  list(): McpServerView[];
  putAll(configs: Record<string, McpServerConfig>): Promise<McpServerView[]>;
  delete(name: string): Promise<void>;
}

/**
 * The official package (its zod schemas), node-forge and fflate are loaded
 * when a bundle is first opened, not with the core: most sessions open none.
 */
const bundleTools = async () => {
  const [manifest, signature, mcpb] = await Promise.all([import('./mcpb-manifest.js'), import('./mcpb-signature.js'), import('@anthropic-ai/mcpb/node')]);
  return { ...manifest, ...signature, extractSignatureBlock: mcpb.extractSignatureBlock };
};

interface Preview {
  file: string;
  /** Where it would be unpacked, shown in the plan exactly as it will run. */
  folderName: string;
  /** The server the plan named: the install adds exactly that one, or says why it cannot. */
  serverName: string;
  manifest: McpbManifest;
  expires: number;
  blocked: InstallProblem | undefined;
}

/**
 * MCP bundles (`.mcpb`): a preview of what one would add, then its install
 * into `<data>/mcpb/<folder>/` as a server that is off until the person
 * switches it on, updates that replace its files, and uninstalls that remove
 * them. Which server came from which bundle is kept in `mcpb.json`.
 */
export class McpbInstaller {
  private readonly root: string;
  private readonly previewsDir: string;
  private readonly recordFile: string;
  private readonly previews = new Map<string, Preview>();
  private records: Record<string, McpbInstall> = {};

  constructor(
    private readonly deps: { dataDir: string; servers: ServerRoster; secrets: SecretStore; clock: Clock; platform?: string; home?: string },
  ) {
    this.root = path.join(deps.dataDir, 'mcpb');
    this.previewsDir = path.join(this.root, '.previews');
    this.recordFile = path.join(deps.dataDir, 'mcpb.json');
  }

  /** Reads what was installed and removes what a crash left half-done (an unpacked folder no install names, old previews). */
  async open(): Promise<void> {
    const read = await readJsonFile(this.recordFile);
    this.records = read.ok && read.value && typeof read.value === 'object' ? (read.value as { installs?: Record<string, McpbInstall> }).installs ?? {} : {};
    await rm(this.previewsDir, { recursive: true, force: true });
    const kept = new Set(Object.values(this.records).map((record) => record.folder));
    const folders = await readdir(this.root).catch(() => [] as string[]);
    for (const folder of folders) if (!kept.has(folder)) await rm(path.join(this.root, folder), { recursive: true, force: true });
  }

  installs(): McpbInstall[] {
    return Object.values(this.records).sort((a, b) => a.serverName.localeCompare(b.serverName));
  }

  async preview(file: { name: string; dataBase64: string }): Promise<McpbPreview> {
    const bytes = Buffer.from(file.dataBase64, 'base64');
    if (bytes.length === 0) throw new ToolbeltError('mcpb_invalid', `${file.name} is empty: choose an .mcpb file.`);
    if (bytes.length > MAX_MCPB_BYTES) throw new ToolbeltError('payload_too_large', 'This MCP bundle is larger than 200 MB.');
    // Anything that is not a ZIP archive is refused before the bundle tools load.
    if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) throw mcpbRefused(`${file.name} is not a readable .zip (an MCP bundle is a ZIP archive).`);
    const { extractSignatureBlock, parseManifest, checkMcpbSignature, manifestProblems, systemFolders, resolveServer, configFields } = await bundleTools();
    const { originalContent, pkcs7Signature } = extractSignatureBlock(bytes);
    const contents = readMcpb(originalContent, new Set(['manifest.json']));
    const manifest = parseManifest(manifestJsonOf(contents));
    await this.dropExpiredPreviews();
    await makePrivateFolder(this.root);
    await makePrivateFolder(this.previewsDir);
    const previewId = randomUUID();
    const stored = path.join(this.previewsDir, `${previewId}.mcpb`);
    await writeFile(stored, bytes, { mode: 0o600 });
    const signature = checkMcpbSignature(originalContent, pkcs7Signature, this.deps.clock.now());
    const problems = manifestProblems(manifest, contents.names, this.platform);
    if (signature.status === 'mismatch') {
      problems.push({ level: 'error', code: 'mcpb_signature_mismatch', message: 'It carries a signature that does not match its contents: it was changed after it was signed.' });
    } else if (signature.status === 'self-signed' || signature.status === 'untrusted') {
      problems.push({ level: 'warning', code: 'mcpb_signature_untrusted', message: `It is signed by ${signature.publisher ?? 'a publisher'}, whose certificate ${signature.status === 'self-signed' ? 'vouches for itself' : 'no authority this system trusts vouches for, or is out of date'}: the signature says it is unchanged, not who made it.` });
    }
    const folders = systemFolders(this.deps.home);
    const existing = this.installedAs(manifest.name);
    const serverName = existing ?? serverNameFor(manifest.display_name ?? manifest.name, this.deps.servers.list());
    const folderName = this.folderFor(manifest, previewId.slice(0, 8));
    // With the defaults: settings the person has not given yet stay placeholders.
    const resolved = await resolveServer(manifest, path.join(this.root, folderName), {}, folders, { preview: true });
    const plan = planOf(serverName, resolved.config, [...resolved.secrets.keys()], existing !== undefined);
    const foreign = foreignPlaceholders(resolved.config, new Set(resolved.secrets.keys()), (inner) => inner.startsWith('user_config.'));
    if (foreign.length) problems.push({ level: 'error', code: 'install_names_secret', message: `It names ${foreign.join(', ')}: values Toolbelt would fill in from your secrets or environment, which a bundle is not given.` });
    const blocked = problems.find((problem) => problem.level === 'error');
    this.previews.set(previewId, { file: stored, folderName, serverName, manifest, expires: this.deps.clock.now().getTime() + PREVIEW_LIFETIME_MS, blocked });
    return {
      previewId,
      manifest: summaryOf(manifest),
      signature,
      userConfig: configFields(manifest, folders),
      plan,
      problems,
      installable: !blocked,
      files: contents.names.size,
      unpackedBytes: contents.unpackedBytes,
    };
  }

  async install(previewId: string, userConfig: Record<string, unknown>, enabled: boolean): Promise<McpServerView> {
    const preview = this.previews.get(previewId);
    if (!preview || preview.expires < this.deps.clock.now().getTime()) throw new ToolbeltError('import_preview_gone', 'This bundle preview is no longer kept: open the .mcpb file again.');
    if (preview.blocked) throw new ToolbeltError(isErrorCode(preview.blocked.code) ? preview.blocked.code : 'mcpb_invalid', preview.blocked.message);
    const { manifest, folderName, serverName } = preview;
    // The plan the person saw names this server: if another took the name since, nothing is replaced behind their back.
    const existing = this.installedAs(manifest.name);
    if (existing !== serverName && this.deps.servers.list().some((server) => server.name === serverName)) {
      throw new ToolbeltError('conflict', `A server named ${serverName} was added after this bundle was previewed: open the .mcpb file again.`);
    }
    const { resolveServer, systemFolders, extractSignatureBlock } = await bundleTools();
    const folder = path.join(this.root, folderName);
    const resolved = await resolveServer(manifest, folder, userConfig, systemFolders(this.deps.home));
    const foreign = foreignPlaceholders(resolved.config, new Set(resolved.secrets.keys()));
    if (foreign.length) throw new ToolbeltError('install_names_secret', `This bundle's settings name ${foreign.join(', ')}, which Toolbelt would fill in from your secrets or environment.`);
    const { originalContent } = extractSignatureBlock(await readFile(preview.file));
    const contents = readMcpb(originalContent, 'all');
    const entry = manifest.server.entry_point.replace(/^\.\//, '');
    try {
      await writeMcpbFiles(contents, folder, manifest.server.type === 'binary' ? entry : null);
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
    for (const [name, value] of resolved.secrets) await this.deps.secrets.put(name, value);
    const previous = existing ? this.records[existing] : undefined;
    await this.saveRecord(serverName, { serverName, bundleName: manifest.name, version: manifest.version, folder: folderName, installedAt: this.deps.clock.now().toISOString(), secrets: [...resolved.secrets.keys()] });
    const [view] = await this.deps.servers.putAll({ [serverName]: { ...resolved.config, ...(enabled ? {} : { disabled: true }) } });
    if (previous && previous.folder !== folderName) await rm(path.join(this.root, previous.folder), { recursive: true, force: true });
    this.previews.delete(previewId);
    await rm(preview.file, { force: true });
    return view!;
  }

  /** Removes the server, its files and the secrets made for it. */
  async uninstall(serverName: string): Promise<void> {
    const record = this.records[serverName];
    if (!record) throw new ToolbeltError('not_found', `${serverName} was not installed from an MCP bundle.`);
    if (this.deps.servers.list().some((server) => server.name === serverName)) await this.deps.servers.delete(serverName);
    await rm(path.join(this.root, record.folder), { recursive: true, force: true });
    for (const name of record.secrets) await this.deps.secrets.delete(name);
    await this.saveRecord(serverName, null);
  }

  private get platform(): string {
    return this.deps.platform ?? process.platform;
  }

  private installedAs(bundleName: string): string | undefined {
    return Object.values(this.records).find((record) => record.bundleName === bundleName)?.serverName;
  }

  private folderFor(manifest: McpbManifest, suffix: string): string {
    const base = manifest.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'bundle';
    return `${base}-${suffix}`;
  }

  private async saveRecord(serverName: string, record: McpbInstall | null): Promise<void> {
    const next = { ...this.records };
    if (record) next[serverName] = record;
    else delete next[serverName];
    await writeFileAtomically(this.recordFile, `${JSON.stringify({ installs: next }, null, 2)}\n`, { within: this.deps.dataDir });
    this.records = next;
  }

  private async dropExpiredPreviews(): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const byAge = [...this.previews.entries()].sort((a, b) => a[1].expires - b[1].expires);
    for (const [id, preview] of byAge) {
      if (preview.expires >= now && this.previews.size < MAX_PREVIEWS) continue;
      this.previews.delete(id);
      await rm(preview.file, { force: true });
    }
  }
}

function summaryOf(manifest: McpbManifest): McpbPreview['manifest'] {
  const list = (items: { name: string; description?: string | undefined }[] | undefined) =>
    (items ?? []).slice(0, 500).map((item) => ({ name: item.name, ...(item.description ? { description: item.description } : {}) }));
  const runtimes = Object.fromEntries(Object.entries(manifest.compatibility?.runtimes ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return {
    name: manifest.name,
    displayName: manifest.display_name ?? manifest.name,
    version: manifest.version,
    description: manifest.description,
    author: { name: manifest.author.name, ...(manifest.author.email ? { email: manifest.author.email } : {}), ...(manifest.author.url ? { url: manifest.author.url } : {}) },
    manifestVersion: String(manifest.manifest_version ?? manifest.dxt_version ?? ''),
    serverType: manifest.server.type,
    ...(manifest.homepage ? { homepage: manifest.homepage } : {}),
    ...(manifest.repository?.url ? { repository: manifest.repository.url } : {}),
    ...('license' in manifest && typeof manifest.license === 'string' ? { license: manifest.license } : {}),
    tools: list(manifest.tools),
    toolsGenerated: manifest.tools_generated ?? false,
    prompts: list(manifest.prompts),
    platforms: [...(manifest.compatibility?.platforms ?? [])],
    runtimes,
  };
}
