import type { ToolCall } from '../../../shared/schemas/chat.js';
import { useApi } from '../../api/context.js';
import { useTool } from '../../queries/tools.js';
import { McpAppView } from './McpAppView.js';

/**
 * The app of a call's tool, when its MCP server gives it one (`ui.resourceUri`), shown in the call's card; nothing
 * for other tools. While the model still writes the call (`writing`) the app gets the arguments as far as they go.
 * A message the app sends goes into the chat the call is in.
 */
export function ToolCallApp({ call, chatId, writing = false }: { call: ToolCall; chatId?: string; writing?: boolean }) {
  const api = useApi();
  const tool = useTool(call.tool ? { bundleID: call.tool.bundleID, slug: call.tool.slug, version: call.tool.version } : null);
  const found = tool.data?.status === 'valid' && tool.data.type === 'mcp' ? tool.data : null;
  if (!found?.impl.ui?.resourceUri || !call.tool) return null;
  return (
    <McpAppView
      tool={{ bundleID: call.tool.bundleID, slug: call.tool.slug, displayName: found.displayName }}
      input={call.args}
      inputComplete={!writing}
      result={call.result}
      structured={found.outputSchema !== undefined}
      {...(call.status === 'cancelled' || call.status === 'denied' ? { cancelled: call.status } : {})}
      {...(chatId
        ? {
            onMessage: async (text: string) => void (await api.chats.send({ chatId, content: text })),
            onModelContext: async (text: string) => void (await api.chats.appContext({ chatId, callId: call.id, text })),
          }
        : {})}
    />
  );
}
