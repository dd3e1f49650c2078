import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolbeltError } from '../../shared/errors.js';
import type { McpbPreview } from '../../shared/schemas/mcp-install.js';
import { MAX_MCPB_BYTES } from '../mcp-client/mcpb/mcpb-installs.js';
import type { Core } from './options.js';

/** Links and bundle files the desktop app was asked to open (`app/links.ts` finds them in a launch's arguments). */
export interface OpenRequest {
  links: string[];
  bundles: string[];
}

/**
 * Hands what the app was opened with to the window, through the core's
 * events: a link as it is (the window asks the core what it would do and
 * waits for the person), a bundle previewed first (nothing unpacked, nothing
 * run). What cannot be opened is said, with its code.
 */
export async function openInWindow(core: Pick<Core, 'dispatcher' | 'events'>, request: OpenRequest): Promise<void> {
  for (const link of request.links) core.events.publish({ type: 'app.opened', link });
  for (const file of request.bundles) {
    try {
      const size = (await stat(file)).size;
      if (size > MAX_MCPB_BYTES) throw new ToolbeltError('payload_too_large', `${path.basename(file)} is larger than 200 MB.`);
      const bytes = await readFile(file);
      const mcpbPreview = (await core.dispatcher.call('mcpb.preview', { file: { name: path.basename(file), dataBase64: bytes.toString('base64') } }, { transport: 'internal' })) as McpbPreview;
      core.events.publish({ type: 'app.opened', mcpbPreview });
    } catch (error) {
      const problem = error instanceof ToolbeltError ? { code: error.code, message: error.message } : { code: 'file_invalid', message: `${path.basename(file)} cannot be read: ${(error as Error).message}` };
      core.events.publish({ type: 'app.opened', problem });
    }
  }
}
