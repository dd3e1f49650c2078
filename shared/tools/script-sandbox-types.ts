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

/** Examples a person starts a script from, by what they show: each a whole module. */
export const SCRIPT_EXAMPLES = {
  hello: STARTER_SCRIPT,
  reshape: `/**
 * The open issues of a repository, as title and link only.
 * @param repo owner/name, for example octocat/hello-world.
 */
export default async function openIssues(repo: string, limit = 10): Promise<{ title: string; url: string }[]> {
  const response = await fetch(\`https://api.github.com/repos/\${repo}/issues?state=open&per_page=\${limit}\`);
  if (!response.ok) throw new Error(\`GitHub answered \${response.status}\`);
  const issues: { title: string; html_url: string }[] = await response.json();
  return issues.map((issue) => ({ title: issue.title, url: issue.html_url }));
}
`,
  join: `/**
 * The time where a calculation's answer is due: calls two other tools and joins their answers.
 * @param expression Something to calculate, for example 6 * 7.
 */
export default async function answerWithTime(expression: string): Promise<{ answer: unknown; at: unknown }> {
  const [answer, at] = await Promise.all([tools.call('calculator', { expression }), tools.call('current-time', {})]);
  return { answer, at };
}
`,
  dates: `/**
 * Days between two dates, and the distance in both units.
 * @param from A date, YYYY-MM-DD.
 * @param to A date, YYYY-MM-DD.
 * @param km A distance in kilometres.
 */
export default function between(from: string, to: string, km = 0): { days: number; miles: number } {
  const day = 24 * 60 * 60 * 1000;
  const days = Math.round((Date.parse(to) - Date.parse(from)) / day);
  if (Number.isNaN(days)) throw new Error('Give both dates as YYYY-MM-DD.');
  return { days, miles: Math.round(km * 0.621371 * 100) / 100 };
}
`,
} as const;
export type ScriptExample = keyof typeof SCRIPT_EXAMPLES;
