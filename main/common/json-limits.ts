import type { ValidationIssue } from '../../shared/errors.js';

/**
 * Deeper than this, a value is refused where it enters: JSON.parse takes
 * any depth, but structuredClone, JSON.stringify and recursive code stop
 * with a stack overflow near ten thousand levels, which would be a crash.
 * No tool argument or API answer a person means needs more.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * The first thing in a JSON value that the core cannot safely carry: nesting
 * past `maxDepth`, or (with `text`) a string or key holding a lone UTF-16
 * surrogate, which is not text and breaks URL encoding, headers and every
 * provider's API, or a key named `__proto__`. Walks without recursion, so the walk itself cannot overflow.
 */
export function jsonValueProblem(value: unknown, options: { text: boolean; maxDepth?: number }): ValidationIssue | null {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  // Every call and every response goes through here: the common case (no
  // problem) walks without building paths; only a value with a problem is
  // walked again to say where.
  return hasProblem(value, options.text, maxDepth) ? locateProblem(value, options.text, maxDepth) : null;
}

function hasProblem(value: unknown, text: boolean, maxDepth: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const node = values.pop();
    const depth = depths.pop()!;
    if (typeof node === 'string') {
      if (text && !node.isWellFormed()) return true;
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) return true;
    if (Array.isArray(node)) {
      for (const item of node) {
        values.push(item);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key in node) {
      if (text && (!key.isWellFormed() || key === '__proto__')) return true;
      values.push((node as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return false;
}

function locateProblem(value: unknown, text: boolean, maxDepth: number): ValidationIssue | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: node, path, depth } = stack.pop()!;
    if (typeof node === 'string') {
      if (text && !node.isWellFormed()) return { path: path || '/', message: 'contains a lone UTF-16 surrogate, which is not text' };
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) return { path: path || '/', message: `is nested more than ${maxDepth} levels deep` };
    if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index--) stack.push({ value: node[index], path: `${path}/${index}`, depth: depth + 1 });
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      const childPath = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (text && !key.isWellFormed()) return { path: childPath, message: 'has a name with a lone UTF-16 surrogate, which is not text' };
      // A copy made with plain assignment would take it as the object's prototype rather than a name.
      if (text && key === '__proto__') return { path: childPath, message: 'is named __proto__, which no name may be' };
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return null;
}
