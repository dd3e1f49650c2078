import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packExtension } from '@anthropic-ai/mcpb/cli';
import { PROJECT_ROOT } from '../cores/spawned-host.js';

/**
 * A real MCP bundle, packed by the official `@anthropic-ai/mcpb` package: a
 * small Node server (the official SDK's McpServer over stdio) whose `whoami`
 * tool says what its settings gave it, and a manifest asking for a greeting,
 * a sensitive key and a folder.
 */
export async function buildMcpBundle(
  folder: string,
  options: { version?: string; manifest?: Record<string, unknown>; withoutEntryPoint?: boolean; /** Random (incompressible) bytes beside the server, for a bundle of a given size. */ ballastBytes?: number } = {},
): Promise<{ file: string; bytes: Buffer }> {
  const source = path.join(folder, `greeter-${options.version ?? '1.0.0'}`);
  await mkdir(path.join(source, 'server'), { recursive: true });
  const sdk = (file: string) => pathToFileURL(path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server', file)).href;
  if (!options.withoutEntryPoint) {
    await writeFile(
      path.join(source, 'server/index.mjs'),
      [
        `import { McpServer } from ${JSON.stringify(sdk('mcp.js'))};`,
        `import { StdioServerTransport } from ${JSON.stringify(sdk('stdio.js'))};`,
        `const server = new McpServer({ name: 'greeter', version: ${JSON.stringify(options.version ?? '1.0.0')} });`,
        "server.registerTool('whoami', { description: 'Says what the settings gave it.' }, () => ({",
        "  content: [{ type: 'text', text: JSON.stringify({ greeting: process.env.GREETING, keyLength: (process.env.API_KEY ?? '').length, keyQuoted: (process.env.API_KEY ?? '').includes('\"'), workdir: process.env.WORKDIR, cwd: process.cwd() }) }],",
        '}));',
        'await server.connect(new StdioServerTransport());',
      ].join('\n'),
    );
  }
  if (options.ballastBytes) await writeFile(path.join(source, 'server/ballast.bin'), randomBytes(options.ballastBytes));
  const manifest = {
    manifest_version: '0.3',
    name: 'greeter',
    display_name: 'Greeter',
    version: options.version ?? '1.0.0',
    description: 'Greets, with a key.',
    author: { name: 'Toolbelt tests', email: 'tests@example.com' },
    server: {
      type: 'node',
      entry_point: 'server/index.mjs',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/server/index.mjs'],
        env: { GREETING: '${user_config.greeting}', API_KEY: '${user_config.api_key}', WORKDIR: '${user_config.workdir}' },
      },
    },
    tools: [{ name: 'whoami', description: 'Says what the settings gave it.' }],
    prompts: [{ name: 'greet', description: 'A greeting.', text: 'Say hello.' }],
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: '>=18.0.0' } },
    user_config: {
      greeting: { type: 'string', title: 'Greeting', description: 'What it says first.', default: 'Hello', required: false },
      api_key: { type: 'string', title: 'API key', description: 'Kept as a secret.', sensitive: true, required: true },
      workdir: { type: 'directory', title: 'Folder', description: 'Where it works.', default: '${HOME}/greeter' },
    },
    ...options.manifest,
  };
  await writeFile(path.join(source, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const file = path.join(folder, `greeter-${options.version ?? '1.0.0'}.mcpb`);
  if (!(await packExtension({ extensionPath: source, outputPath: file, silent: true }))) throw new Error('the mcpb package refused to pack the test bundle');
  return { file, bytes: await readFile(file) };
}
