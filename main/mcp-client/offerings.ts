import { ProtocolError, type GetPromptResult, type Prompt, type ReadResourceResult, type Resource, type ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import { ToolbeltError } from '../../shared/errors.js';
import type { McpPrompt, McpPromptMessages, McpResource, McpResourceContent } from '../../shared/schemas/mcp.js';
import { base64Size, contentBlocksForModel, isContentBlocks } from '../../shared/mcp/content-blocks.js';
import { pictureFrom, type AttachedImage } from '../../shared/schemas/attached-image.js';

/** A read larger than this is refused: it would not fit a message, and the window would stall on it. */
const MAX_READ_CHARS = 8_000_000;

const optional = <K extends string>(key: K, value: string | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, string>));

/** What a server offers besides tools, in our shapes: only the fields we show, so a server's extras never reach the window. */
function describedView(item: Resource | ResourceTemplate) {
  return { name: item.name, ...optional('title', item.title), ...optional('description', item.description), ...optional('mimeType', item.mimeType) };
}

export function resourceView(resource: Resource): McpResource {
  return { uri: resource.uri, ...describedView(resource) };
}

export function templateView(template: ResourceTemplate) {
  return { uriTemplate: template.uriTemplate, ...describedView(template) };
}

export function contentsView(contents: ReadResourceResult['contents']): McpResourceContent[] {
  const size = contents.reduce((total, content) => total + ('text' in content ? content.text.length : 0) + ('blob' in content ? content.blob.length : 0), 0);
  if (size > MAX_READ_CHARS) throw new ToolbeltError('payload_too_large', `The resource is ${Math.round(size / 1_000_000)} MB; Toolbelt reads resources up to ${MAX_READ_CHARS / 1_000_000} MB.`);
  return contents.map((content) => ({
    uri: content.uri,
    ...optional('mimeType', content.mimeType),
    ...('text' in content ? { text: content.text } : {}),
    ...('blob' in content ? { blob: content.blob } : {}),
  }));
}

export function promptView(prompt: Prompt): McpPrompt {
  return {
    name: prompt.name,
    ...optional('title', prompt.title),
    ...optional('description', prompt.description),
    arguments: (prompt.arguments ?? []).map((argument) => ({ name: argument.name, ...optional('description', argument.description), required: argument.required ?? false })),
  };
}

/** A filled-in prompt's messages as text: embedded resources keep their text, pictures are named and kept beside it for the model to see. */
export function promptMessagesView(result: GetPromptResult): McpPromptMessages {
  return {
    ...optional('description', result.description),
    messages: result.messages.map((message) => {
      const image = pictureIn(message.content);
      if (image) return { role: message.role, text: `[picture ${image.mimeType}, ${base64Size(image.data)}]`, image };
      if (message.content.type === 'image') return { role: message.role, text: `[picture ${message.content.mimeType}, ${base64Size(message.content.data)}, left out: models take PNG, JPEG, GIF and WebP up to 3 MB]` };
      return { role: message.role, text: isContentBlocks([message.content]) ? contentBlocksForModel([message.content]) : JSON.stringify(message.content) };
    }),
  };
}

/** A prompt message's picture (an image, or an embedded resource that is one) in a format models take; anything else stays a name in the text. */
function pictureIn(content: GetPromptResult['messages'][number]['content']): AttachedImage | null {
  const [mimeType, data] =
    content.type === 'image' ? [content.mimeType, content.data] : content.type === 'resource' && 'blob' in content.resource ? [content.resource.mimeType, content.resource.blob] : [];
  return pictureFrom(mimeType, data);
}

/** A server's own error, said as its answer; anything else is passed on. */
export function serverRefusal(server: string, what: string, error: unknown): never {
  if (error instanceof ProtocolError) throw new ToolbeltError('mcp_error', `The MCP server ${server} could not ${what}: ${error.message}`);
  throw error;
}
