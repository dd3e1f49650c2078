import { ToolbeltError } from '../../shared/errors.js';

export type SortKey = readonly (string | number)[];

export function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const left = a[i];
    const right = b[i];
    if (left === right) continue;
    if (left === undefined) return -1;
    if (right === undefined) return 1;
    if (typeof left === 'number' && typeof right === 'number') return left - right;
    return String(left) < String(right) ? -1 : 1;
  }
  return 0;
}

/**
 * Keyset paging: a token holds the sort key of the last item served, so the
 * next page starts strictly after it. Walking every page returns every match
 * exactly once even while items are added or removed in between. `scope`
 * binds a token to its listing (a search token is useless for another query).
 */
export function paginate<T>(
  sorted: readonly T[],
  keyOf: (item: T) => SortKey,
  request: { pageSize: number; pageToken?: string; scope: string },
): { items: T[]; nextPageToken?: string } {
  let start = 0;
  if (request.pageToken) {
    const after = decodeToken(request.pageToken, request.scope);
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareKeys(keyOf(sorted[middle]!), after) <= 0) low = middle + 1;
      else high = middle;
    }
    start = low;
  }
  const items = sorted.slice(start, start + request.pageSize);
  const hasMore = start + request.pageSize < sorted.length;
  return hasMore ? { items, nextPageToken: encodeToken(request.scope, keyOf(items.at(-1)!)) } : { items };
}

function encodeToken(scope: string, key: SortKey): string {
  return Buffer.from(JSON.stringify({ s: scope, k: key }), 'utf8').toString('base64url');
}

function decodeToken(token: string, scope: string): SortKey {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { s?: unknown; k?: unknown };
    if (
      value.s === scope &&
      Array.isArray(value.k) &&
      value.k.every((part) => typeof part === 'string' || typeof part === 'number')
    ) {
      return value.k;
    }
  } catch {
    // reported below
  }
  throw new ToolbeltError('invalid_params', 'pageToken is not valid for this listing; start again without it.', {
    issues: [{ path: '/pageToken', message: 'is not a token from this listing' }],
  });
}
