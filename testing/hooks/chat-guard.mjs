// Hooks on a chat as Claude Code's documentation writes them, for tests. Each appends what it was given to
// chat-hooks.log in $CLAUDE_PROJECT_DIR, one JSON line per run, then:
//   UserPromptSubmit: a prompt with "password" in it is blocked (exit 2, the reason on stderr); any other gets
//     a line printed for the model;
//   SessionStart: prints a line for the model;
//   Stop: the first time, sends the model back ("Also say which tests you ran."); once told it did
//     (stop_hook_active), lets it stop;
//   SubagentStart: gives the agent a line (hookSpecificOutput.additionalContext);
//   SubagentStop: the first time, sends the agent back ("Name your source."), as Stop does.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
let text = '';
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
appendFileSync(path.join(process.env.CLAUDE_PROJECT_DIR, 'chat-hooks.log'), `${JSON.stringify({ event: input.hook_event_name, session: input.session_id, prompt: input.prompt, active: input.stop_hook_active, last: input.last_assistant_message, agent: input.agent_type })}\n`);
if (input.hook_event_name === 'UserPromptSubmit') {
  if (/password/i.test(input.prompt)) {
    process.stderr.write('Do not paste passwords into chats.');
    process.exit(2);
  }
  process.stdout.write('The person works on the Toolbelt repository.');
} else if (input.hook_event_name === 'SessionStart') {
  process.stdout.write('Today the person reviews pull requests.');
} else if (input.hook_event_name === 'Stop' && !input.stop_hook_active) {
  process.stdout.write(JSON.stringify({ decision: 'block', reason: 'Also say which tests you ran.' }));
} else if (input.hook_event_name === 'SubagentStart') {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'Answer in one sentence.' } }));
} else if (input.hook_event_name === 'SubagentStop' && !input.stop_hook_active) {
  process.stdout.write(JSON.stringify({ decision: 'block', reason: 'Name your source.' }));
}
