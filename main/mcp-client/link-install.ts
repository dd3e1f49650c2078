import { ToolbeltError } from '../../shared/errors.js';
import { parseToolbeltLink, type ServersDocument } from '../../shared/links/toolbelt-link.js';
import type { InstallPlan } from '../../shared/schemas/mcp-install.js';
import type { McpServerConfig, McpServerView } from '../../shared/schemas/mcp.js';
import { foreignPlaceholders, planOf, serverNameFor } from './install-plan.js';
import { serversFromPaste } from './pasted-config.js';
import type { ServerRoster } from './mcpb/mcpb-installs.js';

export type LinkPreview = { kind: 'mcp-install'; plans: InstallPlan[] } | { kind: 'chat-new'; text: string };

/** Characters a shell would act on: a command from a link is run without one, so a link that carries them means harm or a mistake. */
const SHELL_CHARACTERS = /[|&;<>`$(){}\n\r*?!~]/;

/**
 * `toolbelt://` links: what one would do, then (once the person confirms)
 * doing it. A link comes from any web page, so it gets less than a paste:
 * it may not name the person's secrets or environment (only VS Code inputs,
 * which become secrets the person is asked to set), its command may hold no
 * shell characters, and it never replaces a server the person has (a name
 * taken gets " (2)").
 */
export class LinkInstaller {
  constructor(private readonly servers: ServerRoster) {}

  preview(link: string): LinkPreview {
    const parsed = parseToolbeltLink(link);
    if (parsed.kind === 'chat-new') return parsed;
    return { kind: 'mcp-install', plans: this.plan(parsed.document).map(({ plan }) => plan) };
  }

  async installMcp(link: string): Promise<McpServerView[]> {
    const parsed = parseToolbeltLink(link);
    if (parsed.kind !== 'mcp-install') throw new ToolbeltError('link_invalid', 'This link does not add MCP servers.');
    const planned = this.plan(parsed.document);
    return this.servers.putAll(Object.fromEntries(planned.map(({ plan }) => [plan.serverName, plan.config])));
  }

  private plan(document: ServersDocument): { plan: InstallPlan }[] {
    const { servers, secretsToSet } = serversFromPaste(document);
    const asked = new Set(secretsToSet);
    const taken: { name: string }[] = [...this.servers.list()];
    return Object.entries(servers).map(([name, config]) => {
      checkFromLink(name, config, asked);
      const serverName = serverNameFor(name, taken);
      taken.push({ name: serverName });
      const secrets = [...asked].filter((secret) => JSON.stringify(config).includes(`\${secret.${secret}}`));
      return { plan: planOf(serverName, config, secrets, false) };
    });
  }
}

function checkFromLink(name: string, config: McpServerConfig, asked: ReadonlySet<string>): void {
  const foreign = foreignPlaceholders(config, asked);
  if (foreign.length) throw new ToolbeltError('install_names_secret', `The link's server ${name} names ${foreign.join(', ')}: a link may not hand your secrets or environment to a server. Add it in Tools → Add MCP server if you mean to.`);
  if ('command' in config && SHELL_CHARACTERS.test(config.command)) {
    throw new ToolbeltError('link_invalid', `The link's server ${name} has a command with shell characters (${JSON.stringify(config.command.slice(0, 100))}): Toolbelt runs commands without a shell, so this cannot be what it means.`);
  }
}
