/**
 * A script built to be slow to read (security round four): `type T0 = { a:
 * T1; b: T1 }; … type Tn = string`, about 40 characters a level and 2^n
 * paths through its types.
 */
export function aliasChain(depth: number, parameter = 'x: T0'): string {
  const lines = Array.from({ length: depth }, (_, level) => `type T${level} = { a: T${level + 1}; b: T${level + 1} };`);
  return `${lines.join('\n')}\ntype T${depth} = string;\nexport default function dag(${parameter}) { return 1; }\n`;
}
