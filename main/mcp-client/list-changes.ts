import type { Client } from '@modelcontextprotocol/client';
import { inBackground } from '../common/background.js';
import type { Logger } from '../log.js';

/** After a listen stream dropped, how long before opening it again: growing, to at most the last. */
const RELISTEN_AFTER_MS = [1_000, 5_000, 30_000];

interface ListenOptions {
  name: string;
  log: Logger;
  /** False once this client is closed or replaced: nothing is opened for it again. */
  stillWanted: () => boolean;
  /** The tool list changed (or may have, while a dropped stream was down): it is read again. */
  toolsChanged: () => void;
  /** Prompts or resources changed: they are read when shown, never kept, so the window is told to read them again. */
  offeringsChanged: () => void;
}

/** A server's list changes, heard as its revision sends them: unasked on 2025, on a listen stream on 2026-07-28. */
export function hearListChanges(client: Client, options: ListenOptions): void {
  client.setNotificationHandler('notifications/tools/list_changed', () => options.toolsChanged());
  client.setNotificationHandler('notifications/prompts/list_changed', () => options.offeringsChanged());
  client.setNotificationHandler('notifications/resources/list_changed', () => options.offeringsChanged());
  listenForListChanges(client, options);
}

/**
 * A 2026-07-28 server sends list changes only on a `subscriptions/listen`
 * stream the client opens (2025 servers send them unasked). The notices it
 * carries reach the client's usual handlers; a stream that drops is opened
 * again, a while later, for as long as the connection is wanted.
 */
function listenForListChanges(client: Client, options: ListenOptions): void {
  if (client.getNegotiatedProtocolVersion()?.startsWith('2025-') ?? true) return;
  const capabilities = client.getServerCapabilities();
  const filter = {
    ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
  };
  if (Object.keys(filter).length === 0) return;
  const keepListening = async (): Promise<void> => {
    for (let drops = 0; options.stillWanted(); drops++) {
      try {
        const subscription = await client.listen(filter);
        if (drops > 0) options.toolsChanged();
        if ((await subscription.closed) === 'local') return;
      } catch (error) {
        if (!options.stillWanted()) return;
        // Said once; a server that keeps refusing is asked again, quietly, at the longest wait.
        if (drops === 0) options.log.warn('an MCP server’s list changes cannot be heard', { server: options.name, error: String(error) });
      }
      const wait = RELISTEN_AFTER_MS[Math.min(drops, RELISTEN_AFTER_MS.length - 1)]!;
      await new Promise((resolve) => setTimeout(resolve, wait).unref());
    }
  };
  inBackground(keepListening(), (error) => options.log.warn('listening to an MCP server’s list changes stopped', { server: options.name, error: String(error) }));
}
