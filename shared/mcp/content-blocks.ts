/**
 * The content list an MCP tool answers with (text, images, audio, resource
 * links, embedded resources), as the card draws it and the model reads it.
 */
export type ContentBlock = (
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name?: string; title?: string; description?: string; mimeType?: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
) & { annotations?: { audience?: unknown; priority?: unknown } };

/** Who a block is for, by its annotations: both when it does not say. */
export function blockAudience(block: ContentBlock): { person: boolean; model: boolean } {
  const audience = block.annotations?.audience;
  if (!Array.isArray(audience) || audience.length === 0) return { person: true, model: true };
  return { person: audience.includes('user'), model: audience.includes('assistant') };
}

const KINDS = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

export function isContentBlocks(value: unknown): value is ContentBlock[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((block) => block !== null && typeof block === 'object' && KINDS.has((block as { type?: unknown }).type as string))
  );
}

/** The size of base64 data, in words: "812 bytes", "12.4 KB". */
export function base64Size(base64: string): string {
  // Each '=' at the end pads a byte that is not there.
  const bytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * Blocks as text for a model: base64 images, audio and blobs would cost
 * thousands of tokens and tell a text model nothing, so they are named with
 * their type and size; the person sees them drawn in the card.
 */
export function contentBlocksForModel(blocks: ContentBlock[]): string {
  // Blocks a server marks for the user only (annotations.audience) are not the model's to read.
  const forModel = blocks.filter((block) => blockAudience(block).model);
  if (forModel.length === 0) return "[The tool's answer was for the user only, and was shown to them.]";
  return forModel
    .map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'image':
        case 'audio':
          return `[${block.type} ${block.mimeType}, ${base64Size(block.data)}, shown to the user]`;
        case 'resource_link':
          return `[resource ${block.uri}${block.name ? ` (${block.name})` : ''}${block.description ? `: ${block.description}` : ''}]`;
        case 'resource':
          return typeof block.resource.text === 'string'
            ? `[resource ${block.resource.uri}]\n${block.resource.text}`
            : `[resource ${block.resource.uri}${block.resource.mimeType ? `, ${block.resource.mimeType}` : ''}${block.resource.blob ? `, ${base64Size(block.resource.blob)}` : ''}]`;
      }
    })
    .join('\n');
}
