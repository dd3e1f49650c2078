import type { Client, Prompt, RequestOptions, Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import { allPages } from './list-pages.js';

/** Told why a list was cut off, naming which. */
type OnCut = (what: string) => (why: string) => void;

/**
 * One page of a list, asked for as such. The SDK's list methods walk every page themselves when given no cursor,
 * with a cap on pages but none on items or bytes; Toolbelt walks them itself (list-pages.ts), within its limits.
 */
function onePage<M extends 'prompts/list' | 'resources/list' | 'resources/templates/list'>(client: Client, method: M, cursor: string | undefined, options?: RequestOptions) {
  return client.request({ method, params: cursor ? { cursor } : {} }, options);
}

/** A server's resources and templates, every page; none when it offers no resources. */
export async function listResources(client: Client, onCut: OnCut): Promise<{ resources: Resource[]; templates: ResourceTemplate[] }> {
  if (!client.getServerCapabilities()?.resources) return { resources: [], templates: [] };
  const resources = await allPages((cursor) => onePage(client, 'resources/list', cursor).then((page) => ({ items: page.resources, next: page.nextCursor })), onCut('resources'));
  const templates = await allPages((cursor) => onePage(client, 'resources/templates/list', cursor).then((page) => ({ items: page.resourceTemplates, next: page.nextCursor })), onCut('resource templates'));
  return { resources, templates };
}

/** A server's prompts, every page; none when it offers no prompts. */
export async function listPrompts(client: Client, onCut: OnCut): Promise<Prompt[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  return allPages((cursor) => onePage(client, 'prompts/list', cursor).then((page) => ({ items: page.prompts, next: page.nextCursor })), onCut('prompts'));
}
