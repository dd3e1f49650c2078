/**
 * What a script tool's code sees besides the language itself, as TypeScript
 * declarations: the editor gives them to its TypeScript service, so a person
 * gets completion and errors for exactly what the sandbox offers.
 */
export const SCRIPT_SANDBOX_TYPES = `
/** An answer to fetch: its status, headers, and body as text or JSON. */
interface SandboxResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  text(): Promise<string>;
  json(): Promise<any>;
}
/** Sends a request through Toolbelt: only to allowed hosts, with the tool's limits; redirects are checked too. */
declare function fetch(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string | object }): Promise<SandboxResponse>;
/** The value of a secret this tool declares (impl.secrets); it is masked in the tool's answer, logs and errors. */
declare function secret(name: string): string;
/** Lines the tester shows with the run. */
declare const console: { log(...values: unknown[]): void; info(...values: unknown[]): void; debug(...values: unknown[]): void; warn(...values: unknown[]): void; error(...values: unknown[]): void };
`;

/** A new script tool's module: a function that takes its arguments by name and answers. */
export const STARTER_SCRIPT = `/**
 * Says hello.
 * @param name Who to greet.
 */
export default function hello(name: string, excited = false): { greeting: string } {
  return { greeting: \`Hello, \${name}\${excited ? '!' : '.'}\` };
}
`;
