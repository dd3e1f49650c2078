import { useQueries } from '@tanstack/react-query';
import { base64Size } from '../../../shared/mcp/content-blocks.js';
import type { MessageAttachment } from '../../../shared/schemas/chat.js';
import { pictureFrom, type AttachedImage } from '../../../shared/schemas/attached-image.js';
import type { McpPrompt, McpPromptMessages, McpResource, McpResourceContent } from '../../../shared/schemas/mcp.js';
import { useApi } from '../../api/context.js';
import { mcpOfferingQueries, useMcpServers } from '../../queries/mcp.js';

export type Offering = { kind: 'resource'; server: string; resource: McpResource } | { kind: 'prompt'; server: string; prompt: McpPrompt };

/** Attachments are kept to what a message may carry. */
export const MAX_ATTACHMENT_CHARS = 1_000_000;
const MAX_PICTURES = 8;

export function offeringKey(offering: Offering): string {
  return `${offering.kind}:${offering.server}:${offering.kind === 'resource' ? offering.resource.uri : offering.prompt.name}`;
}

export function offeringTitle(offering: Offering): string {
  return offering.kind === 'resource' ? (offering.resource.title ?? offering.resource.name) : (offering.prompt.title ?? offering.prompt.name);
}

function matches(offering: Offering, words: string[]): boolean {
  const haystack = (
    offering.kind === 'resource'
      ? [offering.resource.name, offering.resource.title, offering.resource.uri, offering.resource.description]
      : [offering.prompt.name, offering.prompt.title, offering.prompt.description]
  )
    .concat(offering.server)
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** Resources and prompts of every connected MCP server that match what was typed (all words), prompts first. */
export function usePaletteOfferings(query: string, limit = 20): Offering[] {
  const api = useApi();
  const servers = (useMcpServers().data ?? []).filter((server) => server.state === 'connected');
  const prompts = useQueries({ queries: servers.map((server) => mcpOfferingQueries.prompts(api, server.name)) });
  const resources = useQueries({ queries: servers.map((server) => mcpOfferingQueries.resources(api, server.name)) });
  const offerings: Offering[] = servers.flatMap((server, index) => {
    const promptsOf = prompts[index]?.data?.prompts ?? [];
    const resourcesOf = resources[index]?.data?.resources ?? [];
    return [
      ...promptsOf.map((prompt): Offering => ({ kind: 'prompt', server: server.name, prompt })),
      ...resourcesOf.map((resource): Offering => ({ kind: 'resource', server: server.name, resource })),
    ];
  });
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return offerings.filter((offering) => matches(offering, words)).slice(0, limit);
}

/** A resource as the model will read it: its text, pictures attached for it to see, other binary parts named by type and size. */
export function resourceAttachment(server: string, resource: McpResource, contents: McpResourceContent[]): MessageAttachment {
  const images: AttachedImage[] = [];
  const parts = contents.map((content) => {
    if (content.text !== undefined) return content.text;
    const blob = content.blob ?? '';
    const picture = pictureFrom(content.mimeType, blob);
    if (picture) images.push(picture);
    return `[${picture ? 'picture ' : ''}${content.mimeType ?? 'binary'} data, ${base64Size(blob)}]`;
  });
  return { kind: 'resource', server, ref: resource.uri, title: resource.title ?? resource.name, text: checkedSize(parts.join('\n\n')), ...withImages(images) };
}

/** A filled-in prompt: one message as its text; several, each after who says it. Pictures go with it for the model to see. */
export function promptAttachment(server: string, prompt: McpPrompt, filled: McpPromptMessages): MessageAttachment {
  const text = filled.messages.length === 1 ? filled.messages[0]!.text : filled.messages.map((message) => `${message.role}: ${message.text}`).join('\n\n');
  const images = filled.messages.flatMap((message) => (message.image ? [message.image] : []));
  return { kind: 'prompt', server, ref: prompt.name, title: prompt.title ?? prompt.name, text: checkedSize(text), ...withImages(images) };
}

function withImages(images: AttachedImage[]): { images?: AttachedImage[] } {
  if (images.length > MAX_PICTURES) throw new Error(`It has ${images.length} pictures; a message can carry up to ${MAX_PICTURES}.`);
  return images.length ? { images } : {};
}

function checkedSize(text: string): string {
  if (text.length > MAX_ATTACHMENT_CHARS) throw new Error(`It is ${Math.round(text.length / 1000)} KB; a message can carry up to ${MAX_ATTACHMENT_CHARS / 1000} KB.`);
  return text;
}
