// A PreToolUse hook as people write them for Claude Code: reads the call on stdin,
// blocks a call for a city that does not exist (exit 2, the reason on stderr),
// sends "Old Town" to the tool as "Tallinn" (updatedInput), lets the rest go on.
let text = '';
for await (const chunk of process.stdin) text += chunk;
const call = JSON.parse(text);
const city = call.tool_input?.city;
if (city === 'Atlantis') {
  process.stderr.write('Atlantis is not a city you can ask the weather of.');
  process.exit(2);
}
if (city === 'Old Town') {
  const output = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { city: 'Tallinn' }, additionalContext: 'The person calls Tallinn "Old Town".' } };
  process.stdout.write(JSON.stringify(output));
}
if (city === 'Nowhere') {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { town: 'Nowhere' } } }));
}
