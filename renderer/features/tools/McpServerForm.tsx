import { useId, useState } from 'react';
import type { ParamsOf } from '../../../shared/operation.js';
import type { Operations } from '../../../shared/operations/index.js';
import { errorMessage } from '../../components/ErrorLine.js';
import { useImportClaudeDesktop, useImportMcpServers } from '../../queries/mcp.js';

type McpServers = ParamsOf<Operations['mcpServers.import']>['mcpServers'];

const EXAMPLE = `{
  "mcpServers": {
    "filesystem": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"] }
  }
}`;

/**
 * What people paste: the whole `mcpServers` document of Claude Desktop or
 * Cursor, or just its inside ({ name: config }). A sentence says what is
 * wrong with anything else.
 */
export function parseServers(text: string): { servers: McpServers } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `This is not JSON yet: ${(error as Error).message}` };
  }
  const inner = value && typeof value === 'object' && 'mcpServers' in value ? (value).mcpServers : value;
  if (!inner || typeof inner !== 'object' || Array.isArray(inner) || Object.keys(inner).length === 0) {
    return { problem: 'Paste an object of servers: { "mcpServers": { "name": { "command": … } } }.' };
  }
  return { servers: inner as McpServers };
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
    add.mutate(
      { mcpServers: parsed.servers },
      {
        onSuccess: ({ servers }) => settle(servers),
        onError: (failure) => setProblem(errorMessage(failure)),
      },
    );
  };

  return (
    <form className="bundle-form" aria-label="Add MCP server" onSubmit={submit}>
      <label className="field__label" htmlFor={`${id}-json`}>
        Server JSON
      </label>
      <textarea id={`${id}-json`} className="input input--mono mcp-form__json" rows={7} value={text} placeholder={EXAMPLE} autoFocus spellCheck={false} onChange={(event) => setText(event.target.value)} />
      <p className="muted field__help">
        Paste the <code>mcpServers</code> of Claude Desktop or Cursor. Secrets go in as <code>{'${secret.NAME}'}</code>.
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
