import { describe, expect, it } from 'vitest';
import { readHookFile } from './hook-files.js';

describe('hook files of other apps, read into Claude Code’s shape', () => {
  it('takes a .claude/settings.json (or its hooks block) as it is', () => {
    const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre', timeout: 5 }] }] };
    expect(readHookFile({ permissions: { allow: [] }, hooks }, 'linux')).toEqual({ kind: 'claude', hooks, skipped: [] });
    expect(readHookFile(hooks, 'linux')).toEqual({ kind: 'claude', hooks, skipped: [] });
  });

  it('reads VS Code’s .github/hooks/*.json: handlers straight under each event, the command for this platform', () => {
    const file = {
      hooks: {
        PreToolUse: [{ type: 'command', command: './scripts/validate-tool.sh', windows: 'powershell -File scripts\\validate-tool.ps1', timeout: 15 }],
        PostToolUse: [{ type: 'command', command: 'npx prettier --write .', osx: './scripts/format-mac.sh', cwd: '.', env: { A: '1' } }],
      },
    };
    expect(readHookFile(file, 'linux')).toEqual({
      kind: 'vscode',
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'command', command: './scripts/validate-tool.sh', timeout: 15 }] }],
        PostToolUse: [{ hooks: [{ type: 'command', command: 'npx prettier --write .' }] }],
      },
      skipped: [],
    });
    expect(readHookFile(file, 'win32').hooks.PreToolUse).toEqual([{ hooks: [{ type: 'command', command: 'powershell -File scripts\\validate-tool.ps1', timeout: 15 }] }]);
    expect(readHookFile(file, 'darwin').hooks.PostToolUse).toEqual([{ hooks: [{ type: 'command', command: './scripts/format-mac.sh' }] }]);
  });

  it('reads GitHub Copilot’s version 1 file: camel-case events, bash commands, timeoutSec', () => {
    const file = {
      version: 1,
      hooks: {
        preToolUse: [{ type: 'command', bash: './scripts/block-dangerous.sh', powershell: './scripts/block-dangerous.ps1', timeoutSec: 10 }],
        userPromptSubmitted: [{ type: 'command', bash: 'echo prompt >> log.txt' }],
        errorOccurred: [{ type: 'command', bash: 'echo oops' }],
      },
    };
    expect(readHookFile(file, 'linux')).toEqual({
      kind: 'copilot',
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'command', command: './scripts/block-dangerous.sh', timeout: 10 }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo prompt >> log.txt' }] }],
      },
      skipped: [{ event: 'errorOccurred', why: expect.stringContaining('runs no shell commands') as unknown }],
    });
  });

  it('reads Cursor’s .cursor/hooks.json: its events mapped, MCP hooks matched to MCP tools, shell and file hooks skipped', () => {
    const file = {
      version: 1,
      hooks: {
        beforeMCPExecution: [{ command: './hooks/mcp-guard.sh' }],
        preToolUse: [{ command: './hooks/guard.sh', matcher: 'forecast' }],
        beforeShellExecution: [{ command: './hooks/shell.sh' }],
        afterFileEdit: [{ command: './hooks/format.sh' }],
        stop: [{ command: './hooks/stop.sh', loop_limit: 3 }],
      },
    };
    const read = readHookFile(file, 'linux');
    expect(read.kind).toBe('cursor');
    expect(read.hooks).toEqual({
      PreToolUse: [
        { matcher: 'mcp__.*', hooks: [{ type: 'command', command: './hooks/mcp-guard.sh' }] },
        { matcher: 'forecast', hooks: [{ type: 'command', command: './hooks/guard.sh' }] },
      ],
      Stop: [{ hooks: [{ type: 'command', command: './hooks/stop.sh' }] }],
    });
    expect(read.skipped.map((skip) => skip.event)).toEqual(['beforeShellExecution', 'afterFileEdit']);
  });

  it('gives nothing for what is not a hook file, without throwing', () => {
    for (const value of [null, 42, 'text', [], { hooks: 'no' }, { hooks: { PreToolUse: 'no' } }]) expect(readHookFile(value, 'linux')).toMatchObject({ hooks: {} });
  });
});
