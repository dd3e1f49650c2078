import { useId, useState } from 'react';
import type { ParamsOf } from '../../../shared/operation.js';
import type { Operations } from '../../../shared/operations/index.js';
import { errorMessage } from '../../components/ErrorLine.js';
import { useImportClaudeDesktop, useImportMcpServers } from '../../queries/mcp.js';

type PastedDocument = ParamsOf<Operations['mcpServers.import']>;

const EXAMPLE = `{
  "mcpServers": {
    "filesystem": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"] }
  }
}`;

/**
 * What people paste: the whole `mcpServers` document of Claude Desktop,
 * Claude Code, Cursor or Windsurf, VS Code's `{ servers, inputs }`, or just
 * the inside ({ name: config }). A sentence says what is wrong with anything
 * else; the core checks each server.
 */
export function parseServers(text: string): { document: PastedDocument } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `This is not JSON yet: ${(error as Error).message}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0) {
    return { problem: 'Paste an object of servers: { "mcpServers": { "name": { "command": … } } }.' };
  }
  const { mcpServers, servers, inputs } = value as Record<string, unknown>;
  const isObject = (entry: unknown): entry is Record<string, unknown> => Boolean(entry) && typeof entry === 'object' && !Array.isArray(entry);
  if (isObject(mcpServers)) return { document: { mcpServers } };
  if (isObject(servers)) return { document: { servers, ...(Array.isArray(inputs) ? { inputs } : {}) } };
  return { document: { mcpServers: value as Record<string, unknown> } };
}

/** "Add MCP server": paste JSON, see the servers start, and why one did not. */
export function McpServerForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const add = useImportMcpServers();
  const fromClaude = useImportClaudeDesktop();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  /** After an import: close when every server started, else say which did not and why. */
  const settle = (servers: { name: string; state: string; error?: { message: string } }[]) => {
    const failed = servers.filter((server) => server.state === 'failed');
    if (failed.length === 0) onDone();
    else setProblem(failed.map((server) => `${server.name}: ${server.error?.message ?? 'it did not start'}`).join(' '));
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseServers(text);
    if ('problem' in parsed) return setProblem(parsed.problem);
    setProblem(null);
    add.mutate(parsed.document, {
        onSuccess: ({ servers, secretsToSet }) => {
          if (secretsToSet?.length) setProblem(`Set ${secretsToSet.join(', ')} in Settings → Secrets, then restart the server.`);
          else settle(servers);
        },
        onError: (failure) => setProblem(errorMessage(failure)),
      });
  };

  return (
    <form className="bundle-form" aria-label="Add MCP server" onSubmit={submit}>
      <label className="field__label" htmlFor={`${id}-json`}>
        Server JSON
      </label>
      <textarea id={`${id}-json`} className="input input--mono mcp-form__json" rows={7} value={text} placeholder={EXAMPLE} autoFocus spellCheck={false} onChange={(event) => setText(event.target.value)} />
      <p className="muted field__help">
        Paste the <code>mcpServers</code> of Claude Desktop, Claude Code, Cursor or Windsurf, or VS Code’s <code>servers</code>. Secrets go in as{' '}
        <code>{'${secret.NAME}'}</code>, environment variables as <code>{'${env:NAME}'}</code>.
      </p>
      {problem ? (
        <p className="field__error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="arg-form__actions">
        <button type="submit" className="button button--primary button--small" disabled={!text.trim() || add.isPending}>
          {add.isPending ? 'Starting…' : 'Add'}
        </button>
        <button
          type="button"
          className="button button--small"
          title="Import the servers of Claude Desktop's configuration file"
          disabled={fromClaude.isPending}
          onClick={() => fromClaude.mutate(undefined, { onSuccess: ({ servers }) => settle(servers), onError: (failure) => setProblem(errorMessage(failure)) })}
        >
          {fromClaude.isPending ? 'Importing…' : 'From Claude Desktop'}
        </button>
        <button type="button" className="button button--small" onClick={onDone}>
          {problem && (add.isSuccess || fromClaude.isSuccess) ? 'Close' : 'Cancel'}
        </button>
      </div>
    </form>
  );
}
