import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { MAX_SCHEMA_NODES } from './json-schema-2020.js';

/** 3 KB of OpenAPI whose schemas each point twice to the next, 24 levels: 16 million nodes written out. */
function fanOutDescription(levels: number): string {
  const schemas: Record<string, unknown> = { [`L${levels}`]: { type: 'string' } };
  for (let level = 0; level < levels; level++) {
    schemas[`L${level}`] = { type: 'object', properties: { a: { $ref: `#/components/schemas/L${level + 1}` }, b: { $ref: `#/components/schemas/L${level + 1}` } } };
  }
  const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/L0' } } } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Fan-out', version: '1' },
    paths: { '/x': { post: { operationId: 'x', requestBody: body, responses: { 200: { description: 'ok', ...body } } } } },
    components: { schemas },
  });
}

/** Counts the schema nodes of a converted schema as written out. */
function nodes(value: unknown): number {
  if (!value || typeof value !== 'object') return 0;
  const own = Array.isArray(value) ? 0 : 'type' in value || 'description' in value ? 1 : 0;
  return own + Object.values(value).reduce<number>((sum, item) => sum + nodes(item), 0);
}

/** A real bundle .zip whose ZIP64 end record claims 4,294,967,294 entries. */
function zip64Bomb(): string {
  const real = zipSync({ 'manifest.json': strToU8('{"format":"toolbelt-bundle"}') });
  const eocd = real.length - 22;
  const view = new DataView(real.buffer, real.byteOffset);
  const centralDirectory = view.getUint32(eocd + 16, true);
  const record = new DataView(new ArrayBuffer(56));
  record.setUint32(0, 0x06064b50, true);
  record.setBigUint64(4, 44n, true);
  record.setBigUint64(24, 0xfffffffen, true);
  record.setBigUint64(32, 0xfffffffen, true);
  record.setBigUint64(48, BigInt(centralDirectory), true);
  const locator = new DataView(new ArrayBuffer(20));
  locator.setUint32(0, 0x07064b50, true);
  locator.setBigUint64(8, BigInt(eocd), true);
  locator.setUint32(16, 1, true);
  const bytes = Buffer.concat([real.subarray(0, eocd), new Uint8Array(record.buffer), new Uint8Array(locator.buffer), real.subarray(eocd)]);
  return bytes.toString('base64');
}

describe('imports of hostile descriptions answer, bounded', () => {
  it('a $ref fan-out 24 levels deep is read at once and written out within the node limit', async () => {
    const core = await startTestCore();
    const plan = await core.call('imports.openapiPreview', { source: { text: fanOutDescription(24) } });
    const [operation] = plan.operations;
    expect(operation?.tool).toBeDefined();
    const argSchema = operation!.tool!.argSchema;
    expect(nodes(argSchema)).toBeLessThanOrEqual(MAX_SCHEMA_NODES + 10);
    expect(JSON.stringify(argSchema)).toContain('too large to carry over');
    // The answer's schema was as large: left out, with a note.
    expect(operation!.tool!.outputSchema).toBeUndefined();
    // Still a core that answers.
    expect((await core.call('app.info', {})).name).toBe('Toolbelt');
  });

  it('a ZIP64 end record that claims four billion entries is refused at the first foreign one', async () => {
    const core = await startTestCore();
    const refused = await core.failure('bundles.importArchive', { base64: zip64Bomb(), bundleID: newID() });
    expect(refused.code).toBe('import_invalid');
    expect(refused.message).toMatch(/is not part of a bundle|points outside the bundle|not a readable \.zip/);
  });

  it('a Postman collection 20,000 folders deep is refused with a sentence', async () => {
    const core = await startTestCore();
    // Written as text: JSON.stringify itself cannot go that deep.
    const depth = 20_000;
    const folders = `${'{"name":"F","item":['.repeat(depth)}{"name":"Leaf","request":{"method":"GET","url":"https://x.test/a"}}${']}'.repeat(depth)}`;
    const text = `{"info":{"name":"Deep","schema":"https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},"item":[${folders}]}`;
    const refused = await core.failure('imports.openapiPreview', { source: { text } });
    expect([refused.code, refused.message]).toEqual(['import_invalid', expect.stringContaining('nests folders more than 64 deep') as unknown]);
  });
});
