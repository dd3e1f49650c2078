import type { LocalFunction } from '../../../tools/local/registry.js';

type Token = { kind: 'number'; value: number } | { kind: 'name'; value: string } | { kind: 'symbol'; value: string };

const FUNCTIONS: Record<string, (...values: number[]) => number> = {
  sqrt: Math.sqrt,
  cbrt: Math.cbrt,
  abs: Math.abs,
  round: Math.round,
  floor: Math.floor,
  ceil: Math.ceil,
  trunc: Math.trunc,
  sign: Math.sign,
  exp: Math.exp,
  ln: Math.log,
  log: Math.log,
  log10: Math.log10,
  log2: Math.log2,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  atan2: Math.atan2,
  min: Math.min,
  max: Math.max,
  pow: Math.pow,
  hypot: Math.hypot,
};
const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+(?:\.\d*)?(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(\*\*|[-+*/%^(),]))/giy;
  let index = 0;
  while (index < expression.length) {
    if (/^\s*$/.test(expression.slice(index))) break;
    pattern.lastIndex = index;
    const match = pattern.exec(expression);
    if (!match) throw new Error(`Unexpected "${expression.slice(index).trim()[0]}" at position ${index + 1}.`);
    if (match[1] !== undefined) tokens.push({ kind: 'number', value: Number(match[1]) });
    else if (match[2] !== undefined) tokens.push({ kind: 'name', value: match[2].toLowerCase() });
    else tokens.push({ kind: 'symbol', value: match[3] === '**' ? '^' : match[3]! });
    index = pattern.lastIndex;
  }
  return tokens;
}

/**
 * A small precedence-climbing parser over numbers, + - * / % ^, parentheses,
 * named constants and Math functions. It evaluates arithmetic only: there is
 * no way to reach JavaScript from an expression.
 */
export function evaluate(expression: string): number {
  const tokens = tokenize(expression);
  let position = 0;
  const peek = () => tokens[position];
  const expect = (symbol: string) => {
    const token = tokens[position++];
    if (token?.kind !== 'symbol' || token.value !== symbol) throw new Error(`Expected "${symbol}".`);
  };
  const binding: Record<string, number> = { '+': 1, '-': 1, '*': 2, '/': 2, '%': 2, '^': 4 };

  function primary(): number {
    const token = tokens[position++];
    if (!token) throw new Error('The expression ends too early.');
    if (token.kind === 'number') return token.value;
    if (token.kind === 'symbol' && (token.value === '-' || token.value === '+')) {
      const operand = expressionFrom(3);
      return token.value === '-' ? -operand : operand;
    }
    if (token.kind === 'symbol' && token.value === '(') {
      const value = expressionFrom(0);
      expect(')');
      return value;
    }
    if (token.kind === 'name') {
      const next = peek();
      if (next?.kind === 'symbol' && next.value === '(') {
        const fn = FUNCTIONS[token.value];
        if (!fn) throw new Error(`Unknown function "${token.value}".`);
        position++;
        const values: number[] = [];
        if (!(peek()?.kind === 'symbol' && peek()?.value === ')')) {
          values.push(expressionFrom(0));
          while (peek()?.kind === 'symbol' && peek()?.value === ',') {
            position++;
            values.push(expressionFrom(0));
          }
        }
        expect(')');
        return fn(...values);
      }
      const constant = CONSTANTS[token.value];
      if (constant === undefined) throw new Error(`Unknown name "${token.value}".`);
      return constant;
    }
    throw new Error(`Unexpected "${token.value}".`);
  }

  function expressionFrom(minimum: number): number {
    let left = primary();
    for (;;) {
      const token = peek();
      if (token?.kind !== 'symbol') break;
      const strength = binding[token.value];
      if (strength === undefined || strength < minimum) break;
      position++;
      // ^ is right-associative: 2^3^2 is 2^(3^2).
      const right = expressionFrom(token.value === '^' ? strength : strength + 1);
      left =
        token.value === '+' ? left + right
        : token.value === '-' ? left - right
        : token.value === '*' ? left * right
        : token.value === '/' ? left / right
        : token.value === '%' ? left % right
        : left ** right;
    }
    return left;
  }

  const value = expressionFrom(0);
  if (position < tokens.length) throw new Error(`Unexpected "${tokens[position]!.value}" after a complete expression.`);
  if (!Number.isFinite(value)) throw new Error('The result is not a finite number (division by zero?).');
  return value;
}

/** core.calculate */
export const calculate: LocalFunction = (args) => ({ value: evaluate(String(args.expression)) });
