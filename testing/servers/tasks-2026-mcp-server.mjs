// An MCP server of the 2026-07-28 revision that runs a tool as a task of the tasks extension
// (io.modelcontextprotocol/tasks). No published server speaks that extension yet, and the official
// SDK v2 server refuses a tools/call result of resultType "task"; so this one is the SDK v2 server
// (discovery, tools/list, plain calls, headers) with the extension's four methods answered in front
// of it. Every answer of those is checked against the extension's own schemas (ext-tasks' core/v2)
// before it is sent: a shape that drifted from them stops the server with the reason on stderr.
// Prints its URL on stdout, then serves until killed; its tasks outlive any one client.
//   report       runs only as a task: STAGES stages of STAGE_MS each (default 4 × 250 ms), each a status
//                message; topic "ask" asks the person which meaning is meant after the first stage;
//                topic "ask_forever" asks again (a new question) after every answer; topic "fail" ends failed;
//                topic "forever" never ends.
// With OLD_SHAPES=1, tasks/get answers as a 2025-11-25 server would (its task under `task`, no resultType),
// as a hostile or confused server might while saying 2026-07-28.
//   task_states  the status of every task so far, and how many calls were refused for not declaring
//                the extension, as JSON (a plain call).
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { getRequestListener } from '@hono/node-server';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import {
  CancelTaskResultV2Schema,
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  TASKS_EXTENSION_ID_V2,
  UpdateTaskRequestV2Schema,
  UpdateTaskResultV2Schema,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import * as z from 'zod';

const STAGES = Number(process.env.STAGES ?? 4);
const STAGE_MS = Number(process.env.STAGE_MS ?? 250);
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** @type {Map<string, { status: string, statusMessage?: string, createdAt: string, lastUpdatedAt: string, topic: string, stage: number, answer?: string, result?: object, error?: object, timer?: NodeJS.Timeout, inputRequests?: object }>} */
const tasks = new Map();
let refused = 0;

function build() {
  const server = new McpServer({ name: 'tasks-2026', version: '2.4.0' }, { capabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } } });
  // Runs only as a task: a call that does not declare the extension is refused (-32021) before it reaches this.
  server.registerTool('report', { description: 'Writes a report, slowly (runs as a task).', inputSchema: z.object({ topic: z.string() }) }, () => {
    throw new Error('report runs only as a task');
  });
  server.registerTool('task_states', { description: 'The status of every task.', inputSchema: z.object({}) }, () => ({
    content: [{ type: 'text', text: JSON.stringify({ tasks: Object.fromEntries([...tasks].map(([id, task]) => [id, task.status])), refused }) }],
  }));
  return server;
}

const handler = createMcpHandler(build, { legacy: 'reject' });

function touch(task, changes) {
  Object.assign(task, changes, { lastUpdatedAt: new Date().toISOString() });
}

function advance(id) {
  const task = tasks.get(id);
  if (!task || task.status !== 'working' || task.topic === 'forever') return;
  task.stage++;
  if (task.topic.startsWith('ask') && task.stage === 1 && task.answer === undefined) {
    askMeaning(task);
    return;
  }
  if (task.topic === 'fail' && task.stage === 2) {
    touch(task, { status: 'failed', statusMessage: 'The sources ran dry.', error: { code: -32603, message: 'The sources ran dry.' } });
    return;
  }
  if (task.stage >= STAGES) {
    const about = task.answer ? `${task.topic} (${task.answer})` : task.topic;
    touch(task, { status: 'completed', statusMessage: 'Done.', result: { resultType: 'complete', content: [{ type: 'text', text: `# Report: ${about}` }] } });
    return;
  }
  touch(task, { statusMessage: `Stage ${task.stage + 1} of ${STAGES}` });
  task.timer = setTimeout(() => advance(id), STAGE_MS);
}

function askMeaning(task) {
  task.rounds = (task.rounds ?? 0) + 1;
  touch(task, {
    status: 'input_required',
    statusMessage: 'Which meaning?',
    inputRequests: {
      [`meaning_${task.rounds}`]: { method: 'elicitation/create', params: { mode: 'form', message: 'Which meaning of the topic?', requestedSchema: { type: 'object', properties: { meaning: { type: 'string' } }, required: ['meaning'] } } },
    },
  });
}

function detailed(id, task) {
  const base = { taskId: id, status: task.status, createdAt: task.createdAt, lastUpdatedAt: task.lastUpdatedAt, ttlMs: 3_600_000, pollIntervalMs: 100 };
  if (task.statusMessage) base.statusMessage = task.statusMessage;
  if (task.status === 'input_required') base.inputRequests = task.inputRequests;
  if (task.status === 'completed') base.result = task.result;
  if (task.status === 'failed') base.error = task.error;
  return base;
}

/** The extension's own schema says the answer is right, or the server stops: a fixture that drifts must not pass tests. */
function checked(schema, result) {
  const parsed = schema.safeParse(result);
  if (!parsed.success) {
    process.stderr.write(`tasks-2026 fixture sent a shape the extension's schema refuses: ${parsed.error}\n`);
    process.exit(3);
  }
  return result;
}

function error(code, message, data) {
  return { code, message, ...(data ? { data } : {}) };
}

/** The extension's methods: a result, an error, or undefined for the SDK server to answer. */
function answerTaskRequest(body) {
  const params = body.params ?? {};
  if (body.method === 'tools/call' && params.name === 'report') {
    const declared = params._meta?.[CLIENT_CAPABILITIES]?.extensions?.[TASKS_EXTENSION_ID_V2];
    if (declared === undefined) {
      refused++;
      return { error: error(-32021, 'report runs only as a task: declare the tasks extension', { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } } }) };
    }
    const id = randomUUID();
    const now = new Date().toISOString();
    const task = { status: 'working', statusMessage: `Stage 1 of ${STAGES}`, createdAt: now, lastUpdatedAt: now, topic: String(params.arguments?.topic ?? ''), stage: 0 };
    tasks.set(id, task);
    task.timer = setTimeout(() => advance(id), STAGE_MS);
    const { inputRequests: _none, ...summary } = detailed(id, task);
    return { result: checked(CreateTaskResultV2Schema, { ...summary, resultType: 'task' }) };
  }
  if (!body.method?.startsWith('tasks/')) return undefined;
  const task = tasks.get(params.taskId);
  if (!task) return { error: error(-32602, `No task ${params.taskId}`) };
  if (body.method === 'tasks/get' && process.env.OLD_SHAPES === '1') return { result: { task: { taskId: params.taskId, status: task.status, createdAt: task.createdAt, ttl: 60_000 } } };
  if (body.method === 'tasks/get') return { result: checked(GetTaskResultV2Schema, { ...detailed(params.taskId, task), resultType: 'complete' }) };
  if (body.method === 'tasks/cancel') {
    if (!['completed', 'failed', 'cancelled'].includes(task.status)) {
      clearTimeout(task.timer);
      touch(task, { status: 'cancelled', statusMessage: 'Cancelled.' });
    }
    return { result: checked(CancelTaskResultV2Schema, { resultType: 'complete' }) };
  }
  if (body.method === 'tasks/update') {
    if (!UpdateTaskRequestV2Schema.safeParse(body).success) return { error: error(-32602, 'tasks/update needs a taskId and inputResponses') };
    const answer = params.inputResponses[`meaning_${task.rounds}`];
    if (task.status === 'input_required' && answer && task.topic === 'ask_forever') askMeaning(task);
    else if (task.status === 'input_required' && answer) {
      touch(task, { status: 'working', statusMessage: `Stage 2 of ${STAGES}`, answer: answer.action === 'accept' ? String(answer.content?.meaning ?? '') : '(declined)' });
      delete task.inputRequests;
      task.timer = setTimeout(() => advance(params.taskId), STAGE_MS);
    }
    return { result: checked(UpdateTaskResultV2Schema, { resultType: 'complete' }) };
  }
  return { error: error(-32601, `Method not found: ${body.method}`) };
}

const listener = getRequestListener(async (request) => {
  const method = request.headers.get('mcp-method');
  if (request.method !== 'POST' || !(method === 'tools/call' || method?.startsWith('tasks/'))) return handler.fetch(request);
  const body = await request.clone().json();
  const answer = answerTaskRequest(body);
  if (!answer) return handler.fetch(request);
  return Response.json({ jsonrpc: '2.0', id: body.id, ...answer });
});
const http = createServer(listener);
http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (http.address());
  process.stdout.write(`http://127.0.0.1:${port}/mcp\n`);
});
