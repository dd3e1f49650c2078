import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { defineOperation } from '../../shared/operation.js';
import { planHttpRequest } from './http-request.js';

const put = defineOperation({
  name: 'things.put',
  summary: 'test',
  params: Type.Object({ bundleID: Type.String(), slug: Type.String(), title: Type.String() }),
  result: Type.Object({}),
  http: { method: 'PUT', path: '/api/bundles/:bundleID/things/:slug' },
});

const list = defineOperation({
  name: 'things.list',
  summary: 'test',
  params: Type.Object({ tags: Type.Array(Type.String()), pageSize: Type.Integer() }),
  result: Type.Object({}),
  http: { method: 'GET', path: '/api/things' },
});

describe('planHttpRequest', () => {
  it('fills path segments, encoded, and sends the rest as the JSON body', () => {
    expect(planHttpRequest(put, { bundleID: 'b 1', slug: 'wetter/../ä', title: 'T' })).toEqual({
      method: 'PUT',
      path: '/api/bundles/b%201/things/wetter%2F..%2F%C3%A4',
      body: '{"title":"T"}',
    });
  });

  it('sends the rest as a query for GET, arrays as comma lists', () => {
    expect(planHttpRequest(list, { tags: ['a', 'b'], pageSize: 20 })).toEqual({
      method: 'GET',
      path: '/api/things?tags=a%2Cb&pageSize=20',
    });
  });

  it('sends one named param as the whole body when the operation says so', () => {
    const withBodyParam = { ...put, http: { ...put.http, bodyParam: 'title' } };
    expect(planHttpRequest(withBodyParam, { bundleID: 'b', slug: 's', title: 'only me' }).body).toBe('"only me"');
  });

  it('refuses to build a URL with a missing path param', () => {
    expect(() => planHttpRequest(put, { bundleID: 'b', title: 'T' })).toThrow(/needs "slug"/);
  });
});
