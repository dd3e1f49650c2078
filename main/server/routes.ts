import type { HttpMethod, OperationDefinition } from '../../shared/operation.js';
import { operations, type OperationName } from '../../shared/operations/index.js';

interface CompiledRoute {
  name: OperationName;
  method: HttpMethod;
  segments: string[];
}

export type RouteMatch =
  | { kind: 'operation'; name: OperationName; pathParams: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: HttpMethod[] }
  | { kind: 'none' };

/** The HTTP routes, generated from the operation table and nothing else. */
export function createRouter(table: Record<string, OperationDefinition> = operations) {
  const routes: CompiledRoute[] = Object.entries(table).map(([name, definition]) => ({
    name: name as OperationName,
    method: definition.http.method,
    segments: definition.http.path.split('/').filter(Boolean),
  }));

  function matchSegments(route: CompiledRoute, parts: string[]): Record<string, string> | null {
    if (route.segments.length !== parts.length) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const expected = route.segments[i]!;
      const actual = parts[i]!;
      if (expected.startsWith(':')) params[expected.slice(1)] = actual;
      else if (expected !== actual) return null;
    }
    return params;
  }

  return {
    match(method: string, pathname: string): RouteMatch {
      let parts: string[];
      try {
        parts = pathname.split('/').filter(Boolean).map((part) => decodeURIComponent(part));
      } catch {
        return { kind: 'none' };
      }
      const allowed: HttpMethod[] = [];
      for (const route of routes) {
        const params = matchSegments(route, parts);
        if (!params) continue;
        if (route.method === method) return { kind: 'operation', name: route.name, pathParams: params };
        allowed.push(route.method);
      }
      return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'none' };
    },
  };
}
