import { v7 as uuidv7 } from 'uuid';
import { openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../testing/servers/fake-openai.js';
import { CORE_BUNDLE } from '../testing/data/fixtures.js';
import { hostApi, openNewToolEditor } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';
import { openScriptedChat, send } from './fixtures/chat.js';
import { replaceMonacoText } from './fixtures/monaco.js';
import { fullShot, shot } from './fixtures/shots.js';

test('an agent tool: defined in the editor on its own model and tools, tried in the tester, then called from a chat; calls inside it are approved in the dialog with its path, and its steps show in the card', async ({ app }) => {
  // A whole journey (editor, tester, approval, chat, screenshots): ~15 s alone, past 30 s beside another worker in CI.
  test.setTimeout(120_000);
  const asksCalculator = () => openAiToolCallReply([{ id: 'c1', name: 'calculator', args: ['{"expression":"6 * 7"}'] }]);
  const inner = await startFakeOpenAi([asksCalculator(), openAiTextReply(['It is 42.']), asksCalculator(), openAiTextReply(['It is ', '42.'])]);
  try {
    await hostApi(app.host)('PUT', '/providers/inner', { kind: 'openai', displayName: 'Inner model', baseURL: `${inner.url}/v1`, apiKey: 'sk-inner' });
    const editor = await openNewToolEditor(app);
    const { page } = app;
    await editor.getByLabel('Display name').pressSequentially('Maths agent');
    await editor.getByLabel('Type').selectOption('agent');
    // The provider from Settings by name, its tools chosen as a chat chooses them (searched, checked, asked first).
    await editor.getByLabel('Provider').selectOption({ label: 'Inner model' });
    await editor.getByLabel('Model', { exact: true }).pressSequentially('gpt-4o-mini');
    await editor.getByLabel('System prompt').pressSequentially('Use the calculator for sums.');
    await expect(editor.getByRole('group', { name: 'Its tools' })).toContainText('None yet');
    await editor.getByRole('button', { name: 'Choose tools…' }).click();
    const picker = page.getByRole('dialog', { name: 'Tools the agent may call' });
    await picker.getByRole('textbox', { name: 'Search tools' }).pressSequentially('calc');
    await picker.getByRole('checkbox', { name: /^Calculator/ }).check();
    await picker.getByRole('checkbox', { name: 'Ask before running' }).check();
    await page.screenshot(fullShot('agent-tool-picker'));
    await picker.getByRole('button', { name: 'Save' }).click();
    await expect(picker).toBeHidden();
    const chosen = editor.getByRole('list', { name: 'Tools the agent may call' });
    await expect(chosen.getByRole('listitem')).toHaveCount(1);
    await expect(chosen).toContainText('Calculator · Core · v1');
    await expect(chosen).toContainText('asks first');
    await chosen.scrollIntoViewIfNeeded();
    await page.screenshot(fullShot('agent-fields'));
    await replaceMonacoText(page, 'argSchema', '{"type": "object", "properties": {"task": {"type": "string", "title": "Task"}}, "required": ["task"]}');
    await expect(editor.getByRole('status')).toHaveText('No problems found.');

    // Tried before it is saved: its model runs the calculator and answers.
    const draftTester = editor.getByRole('region', { name: 'Tester' });
    await draftTester.getByRole('form', { name: 'Maths agent (draft)' }).getByLabel('Task').pressSequentially('What is 6 times 7?');
    await draftTester.getByRole('button', { name: 'Run' }).click();
    // Its calculator asks first: the approval dialog names the agent it runs inside, and Enter allows once.
    const approval = page.getByRole('dialog', { name: 'Approve tool call' });
    await expect(approval).toContainText('Maths agent → Calculator');
    await expect(approval).toContainText('"expression": "6 * 7"');
    await page.screenshot(fullShot('agent-approval'));
    await page.keyboard.press('Enter');
    await expect(approval).toBeHidden();
    await expect(draftTester.getByTestId('tester-value')).toContainText('It is 42.');
    await draftTester.getByText('What the agent did').click();
    await expect(draftTester).toContainText('{"expression":"6 * 7"}');
    await page.screenshot(fullShot('agent-editor'));
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('An agent on gpt-4o-mini (inner) with 1 tool, up to 6 turns')).toBeVisible();

    const tools = (await hostApi(app.host)('GET', '/tools/tools/search?q=maths-agent&pageSize=20')) as { tools: { slug: string; bundleID: string }[] };
    const agent = tools.tools.find((tool) => tool.slug === 'maths-agent')!;
    await page.keyboard.press('Control+1');
    await openScriptedChat(app, [{ toolCalls: [{ name: 'maths-agent', args: { task: 'What is 6 times 7?' } }] }, { text: 'The agent says 42.' }], [{ bundleID: agent.bundleID, slug: 'maths-agent', version: 'v1' }]);
    await send(page, 'Ask the maths agent');
    await expect(approval).toContainText('Maths agent → Calculator');
    await approval.getByRole('button', { name: 'Allow once' }).click();
    const card = page.getByRole('article', { name: 'Tool call Maths agent' });
    await expect(card.getByRole('status')).toHaveText('Succeeded');
    await expect(page.getByRole('log', { name: 'Messages' })).toContainText('The agent says 42.');
    await card.getByText('What the agent did').click();
    await expect(card).toContainText('Calculator');
    await expect(card).toContainText('{"expression":"6 * 7"}');
    await expect(card).toContainText('It is 42.');
    await page.screenshot(fullShot('agent-steps'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.screenshot(fullShot('agent-steps-narrow-dark'));
    const second = inner.requests[2]!.body as { messages: { role: string; content: string }[] };
    expect(second.messages.slice(0, 2)).toEqual([{ role: 'system', content: 'Use the calculator for sums.' }, { role: 'user', content: 'What is 6 times 7?' }]);
    expect(app.consoleErrors).toEqual([]);
  } finally {
    await inner.close();
  }
});

test('an agent whose provider and one of its tools are gone says so in the editor, and the gone tool can be taken out', async ({ app }) => {
  const { page } = app;
  const api = hostApi(app.host);
  const bundleID = uuidv7();
  await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'mine', displayName: 'Mine' });
  await api('PUT', `/tools/bundles/${bundleID}/tools/helper/version/v1`, {
    displayName: 'Helper',
    description: '',
    type: 'agent',
    argSchema: { type: 'object', properties: { task: { type: 'string' } } },
    impl: {
      providerId: 'gone',
      model: 'gpt-4o-mini',
      tools: [
        { bundleID: CORE_BUNDLE, slug: 'calculator', version: 'v1', as: 'calc', resultLimit: 4000 },
        { bundleID, slug: 'deleted-tool', version: 'v1', denied: true },
      ],
    },
  });
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Mine/ }).click();
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Helper/ }).click();
  await page.getByRole('button', { name: 'New version…' }).click();
  const editor = page.getByRole('region', { name: 'Tool editor' });

  const provider = editor.getByLabel('Provider');
  await expect(provider.locator('option:checked')).toHaveText('gone (missing)');
  await expect(editor.getByText('gone is not in Settings → Providers: the agent cannot run until you choose one that is, or add one there')).toBeVisible();
  const chosen = editor.getByRole('list', { name: 'Tools the agent may call' });
  await expect(chosen.getByRole('listitem')).toHaveCount(2);
  await expect(chosen.getByRole('listitem').first()).toContainText('Calculator · Core · v1');
  await expect(chosen.getByRole('listitem').first()).toContainText('seen as calc');
  await expect(chosen.getByRole('listitem').last()).toContainText('deleted-tool · Mine · v1');
  await expect(chosen.getByRole('listitem').last()).toContainText('missing');
  await chosen.scrollIntoViewIfNeeded();
  await page.screenshot(shot('agent-gone-parts-narrow-dark'));

  // The picker cannot show a tool that is gone: it is taken out from the list itself.
  await chosen.getByRole('button', { name: 'Remove deleted-tool' }).click();
  await expect(chosen.getByRole('listitem')).toHaveCount(1);
  await editor.getByRole('button', { name: 'Choose tools…' }).click();
  await expect(page.getByRole('dialog', { name: 'Tools the agent may call' })).toContainText('1 selected');
  expect(app.consoleErrors.filter((message) => !message.includes('404'))).toEqual([]);
});
