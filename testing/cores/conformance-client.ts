// The official MCP conformance suite's client under test: Toolbelt's own MCP
// client, driven only through Toolbelt's operations (add a server, sign in
// as the person's browser would, call a tool, answer a question), never by
// speaking MCP here. The suite runs it as `<command> <server URL>` with the
// scenario in MCP_CONFORMANCE_SCENARIO and its data in
// MCP_CONFORMANCE_CONTEXT; it judges what reached its server.
import type { EventBus } from '../../main/api/event-bus.js';
import { lookOnEvents } from './event-looks.js';
import { startScratchCore } from './scratch-core.js';

const SERVER = 'conformance';
const DEADLINE_MS = 20_000;

interface PlannedCall {
  tool: string;
  args: Record<string, unknown>;
}

/** The tool each scenario's server expects to be called, and with what (others name theirs in their context). */
const TOOL_CALLS: Record<string, PlannedCall> = {
  tools_call: { tool: 'add_numbers', args: { a: 5, b: 3 } },
  'elicitation-sep1034-client-defaults': { tool: 'test_client_elicitation_defaults', args: {} },
  'sse-retry': { tool: 'test_reconnection', args: {} },
};

/**
 * Scenarios whose server judges which of its tools the client calls: the person calls every tool Toolbelt shows
 * them, at once (a tool Toolbelt leaves out is not shown; calls at once must not share their rounds of questions).
 */
const EVERY_TOOL = new Set(['sep-2322-client-request-state', 'http-invalid-tool-headers']);

interface Context {
  name?: string;
  toolCalls?: { name: string; arguments?: Record<string, unknown> }[];
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
}

/** The client ID metadata document the suite's CIMD scenario expects a client to name (it does not fetch it to sign in). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

async function main(): Promise<void> {
  const serverUrl = process.argv.at(-1)!;
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Context;
  const { core, call, close } = await startScratchCore('conformance-client');
  try {
    // A client registered by hand, as a person would enter it: what is secret as a secret.
    let oauth: Record<string, string> | undefined;
    if (context.client_id) {
      oauth = { clientId: context.client_id, ...(context.name?.startsWith('auth/client-credentials') ? { grant: 'client_credentials' } : {}) };
      if (context.client_secret) {
        await call('secrets.put', { name: 'CONFORMANCE_CLIENT_SECRET', value: context.client_secret });
        oauth.clientSecret = '${secret.CONFORMANCE_CLIENT_SECRET}';
      }
      if (context.private_key_pem) {
        await call('secrets.put', { name: 'CONFORMANCE_PRIVATE_KEY', value: context.private_key_pem });
        oauth.privateKey = '${secret.CONFORMANCE_PRIVATE_KEY}';
        if (context.signing_algorithm) oauth.signingAlgorithm = context.signing_algorithm;
      }
    }
    // Otherwise a client ID metadata document, as a person who hosts one names it: the URL the suite's sign-in server
    // knows. Servers that do not take such documents are registered with as before.
    const identity = oauth ?? { clientMetadataUrl: CLIENT_METADATA_URL };
    await call('mcpServers.put', { name: SERVER, config: { url: serverUrl, oauth: identity } });
    // The person signs in as often as Toolbelt offers it (a server may ask again for wider access).
    let server = await waitFor(call, settled());
    while (server.authorizationUrl) server = await signIn(call, server.authorizationUrl);
    if (server.state !== 'connected') throw new Error(`the server did not connect: ${server.state} ${JSON.stringify(server.error ?? {})}`);

    const answering = answerQuestions(call, core.events);
    try {
      if (EVERY_TOOL.has(scenario)) {
        const { tools } = (await call('tools.list', { bundleIDs: [server.bundleID] })) as { tools: { slug: string; argSchema?: JsonSchema }[] };
        const calls = await Promise.allSettled(tools.map((tool) => callTool(call, server, { tool: tool.slug, args: typedIn(tool.argSchema) })));
        // The server judges what reached it; a call it answered with an error is no failure of the client's.
        for (const failed of calls.filter((each) => each.status === 'rejected')) console.error(String(failed.reason));
      }
      const planned = context.toolCalls?.map((each) => ({ tool: each.name, args: each.arguments ?? {} })) ?? [TOOL_CALLS[scenario] ?? (scenario.startsWith('auth/') ? { tool: 'test-tool', args: {} } : undefined)].filter((each) => each !== undefined);
      for (const each of planned) server = await callTool(call, server, each);
    } finally {
      answering.stop();
    }
  } finally {
    await close();
  }
}

interface JsonSchema {
  properties?: Record<string, { type?: string }>;
  required?: string[];
}

/** What a person types into a tool's form to run it: a value of its type in each required field. */
function typedIn(schema: JsonSchema | undefined): Record<string, unknown> {
  const sample: Record<string, unknown> = { string: 'typed', integer: 1, number: 1, boolean: true };
  return Object.fromEntries((schema?.required ?? []).map((name) => [name, sample[schema?.properties?.[name]?.type ?? ''] ?? null]));
}

/** One call, as the person makes it: signing in again when the call says so. The server as it then is. */
async function callTool(call: Call, server: ServerView, planned: PlannedCall): Promise<ServerView> {
  const invoke = () => call('tools.invoke', { bundleID: server.bundleID, toolSlug: planned.tool, version: 'mcp', args: planned.args }) as Promise<{ ok: boolean; error?: { code: string } }>;
  let result = await invoke();
  while (!result.ok && result.error?.code === 'sign_in_required') {
    server = await waitFor(call, settled());
    if (!server.authorizationUrl) break;
    server = await signIn(call, server.authorizationUrl);
    result = await invoke();
  }
  if (!result.ok) throw new Error(`calling ${planned.tool} failed: ${JSON.stringify(result.error)}`);
  return server;
}

interface ServerView {
  state: string;
  bundleID: string;
  authorizationUrl?: string;
  error?: { code: string; message: string };
}

type Call = (operation: string, params: unknown) => Promise<unknown>;

/** The person's browser: opens the sign-in page, which sends it back to Toolbelt's loopback listener; then waits for the server. */
async function signIn(call: Call, authorizationUrl: string): Promise<ServerView> {
  const page = await fetch(authorizationUrl);
  if (!page.ok) throw new Error(`the sign-in page answered ${page.status}`);
  return waitFor(call, settled(authorizationUrl));
}

/** Done starting: connected, failed for good, or waiting for a sign-in (another than the one just made). */
function settled(signedInAt?: string): (server: ServerView) => boolean {
  return (server) => {
    if (server.state === 'connected') return true;
    if (server.state !== 'failed') return false;
    if (server.error?.code !== 'mcp_auth_required') return true;
    return server.authorizationUrl !== undefined && server.authorizationUrl !== signedInAt;
  };
}

async function waitFor(call: Call, done: (server: ServerView) => boolean): Promise<ServerView> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const { servers } = (await call('mcpServers.list', {})) as { servers: (ServerView & { name: string })[] };
    const server = servers.find((entry) => entry.name === SERVER)!;
    if (done(server) || Date.now() > deadline) return server;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The person accepts each form the server asks with what it shows (its defaults), as each question appears (the
 * core says so with `questions.changed`). A failed look is written out and the next event looks again: one error
 * under the suite's load must not leave a question unanswered for good.
 */
function answerQuestions(call: Call, events: Pick<EventBus, 'subscribe'>): { stop: () => void } {
  const answered = new Set<string>();
  const stop = lookOnEvents(
    events,
    (event) => event.type === 'questions.changed',
    async () => {
      const { questions } = (await call('questions.list', {})) as { questions: { id: string }[] };
      for (const question of questions) {
        if (answered.has(question.id)) continue;
        answered.add(question.id);
        // A failed answer is tried again at the next look.
        await call('questions.answer', { id: question.id, answer: { action: 'accept', content: {} } }).catch((error: unknown) => {
          answered.delete(question.id);
          throw error;
        });
      }
    },
    (error) => console.error('answering a question failed', error),
  );
  return { stop };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
