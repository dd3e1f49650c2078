/**
 * How the desktop app's binary was started: as the app (a window), or as
 * Toolbelt's MCP server on stdio for another app (`--mcp-stdio`, then the
 * server's own options). The stdio server runs in Electron's main process
 * without a window: the app's fuses close its binary's Node mode
 * (ELECTRON_RUN_AS_NODE), which the command used before needed.
 */
export const MCP_STDIO_FLAG = '--mcp-stdio';

/** The stdio server's options (`--data-dir`, `--log-level`) when started as it; null when started as the app. */
export function mcpStdioArguments(argv: readonly string[]): string[] | null {
  const at = argv.indexOf(MCP_STDIO_FLAG);
  return at === -1 ? null : argv.slice(at + 1);
}

/** What another app runs to start this binary as the stdio server: the packaged binary alone, or Electron with the app's folder in development. */
export function mcpStdioCommand(place: { execPath: string; isPackaged: boolean; appPath: string; dataDir: string }): { command: string; args: string[] } {
  return { command: place.execPath, args: [...(place.isPackaged ? [] : [place.appPath]), MCP_STDIO_FLAG, '--data-dir', place.dataDir] };
}
