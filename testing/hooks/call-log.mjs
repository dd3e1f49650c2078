// A PostToolUse hook that logs: appends the event, the tool's name and its response to
// hooks.log in $CLAUDE_PROJECT_DIR, one JSON line per call.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
let text = '';
for await (const chunk of process.stdin) text += chunk;
const call = JSON.parse(text);
const line = { event: call.hook_event_name, tool: call.tool_name, response: call.tool_response ?? null, error: call.error ?? null, caller: call.toolbelt?.caller?.kind, session: call.session_id };
appendFileSync(path.join(process.env.CLAUDE_PROJECT_DIR, 'hooks.log'), `${JSON.stringify(line)}\n`);
