export const MASK = '•••';

/**
 * Hides secret values wherever text leaves the core: traces, errors,
 * snippets, logs. Knows each value in the forms it takes on the wire (as
 * is, URL-encoded, inside a JSON string, in Basic credentials).
 */
export class Redactor {
  private readonly needles: string[];

  constructor(values: Iterable<string>) {
    const forms = new Set<string>();
    for (const value of values) {
      // Shorter values would mask ordinary text; they are no secret anyway.
      if (value.length < 3) continue;
      forms.add(value);
      // A value that is not well-formed text has no URL-encoded form (encodeURIComponent throws).
      if (value.isWellFormed()) forms.add(encodeURIComponent(value));
      forms.add(new URLSearchParams({ v: value }).toString().slice(2));
      forms.add(JSON.stringify(value).slice(1, -1));
      forms.add(Buffer.from(value).toString('base64'));
    }
    // Longest first, so a value is masked whole before any part of it.
    this.needles = [...forms].filter((form) => form.length >= 3).sort((a, b) => b.length - a.length);
  }

  get isEmpty(): boolean {
    return this.needles.length === 0;
  }

  text(input: string): string {
    let output = input;
    for (const needle of this.needles) if (output.includes(needle)) output = output.split(needle).join(MASK);
    return output;
  }

  /**
   * Redacts every string (and key) inside a JSON-like value, on the values
   * themselves: masking the JSON text instead would cut through its quoting
   * (a secret `pass"` appears there as `pass\"`) and break the value.
   */
  value<T>(input: T): T {
    if (this.isEmpty) return input;
    return this.walk(input) as T;
  }

  private walk(input: unknown): unknown {
    if (typeof input === 'string') return this.text(input);
    if (Array.isArray(input)) return input.map((item) => this.walk(item));
    if (input && typeof input === 'object') {
      const output: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(input)) {
        Object.defineProperty(output, this.text(key), { value: this.walk(item), enumerable: true, writable: true, configurable: true });
      }
      return output;
    }
    return input;
  }

  /** Adds credentials derived from secrets (a Basic header) to what is masked. */
  withDerived(values: string[]): Redactor {
    return new Redactor([...this.needles, ...values]);
  }
}

/** The redactor of a call that has no secrets: one, shared, since it masks nothing. */
export const NO_SECRETS = new Redactor([]);
