/**
 * A small OpenAPI description the import process reads by itself when it starts, before any is sent: its first
 * description's code paths (the parser loaded, the store's checks compiled, the converter's functions optimised)
 * are then ready for the person's. It has what most real ones have: parameters of each place, a body, answers
 * by reference, a scheme to sign in.
 */
export const WARM_UP_DESCRIPTION = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Warm-up', version: '1.0.0' },
  servers: [{ url: 'https://api.example.com/v1' }],
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    schemas: {
      Item: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string', pattern: '^[a-z0-9_\\-]+$' },
          name: { type: 'string', maxLength: 100 },
          tags: { type: 'array', items: { type: 'string' } },
          owner: { $ref: '#/components/schemas/Owner' },
          state: { type: 'string', enum: ['open', 'closed'] },
        },
      },
      Owner: { type: 'object', properties: { login: { type: 'string' }, since: { type: 'string', format: 'date-time' } } },
    },
  },
  security: [{ key: [] }],
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        summary: 'List items',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, default: 20 } },
          { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', properties: { state: { type: 'string' } } } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'The items', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } } } },
      },
      post: {
        operationId: 'createItem',
        summary: 'Create an item',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } },
        responses: { '201': { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
      },
    },
    '/items/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getItem', summary: 'One item', responses: { '200': { description: 'The item', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } } },
      delete: { operationId: 'deleteItem', summary: 'Delete an item', responses: { '204': { description: 'Deleted' } } },
    },
  },
});
