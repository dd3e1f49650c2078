import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { geminiReply, startFakeGemini } from '../testing/servers/fake-gemini.js';
import { openAiTextReply, startFakeOpenAi } from '../testing/servers/fake-openai.js';
import { startFakeModelServer } from '../testing/servers/fake-model-server.js';
import { expect, test } from './fixtures/app.js';
import { openSettings } from './fixtures/settings.js';
import { hostApi } from './fixtures/api.js';
import { send, type App } from './fixtures/chat.js';
import { shot } from './fixtures/shots.js';
import { typeOver } from './fixtures/typing.js';

// Providers in Settings and the model a chat uses: adding, testing and listing them, and picking a model.

async function expectAccessible(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
}

async function openAddProvider(app: App) {
  const { page } = app;
  await page.goto(app.host.url);
  await openSettings(page, 'Providers');
  const section = page.getByRole('region', { name: 'Providers' });
  await section.getByRole('button', { name: 'Add provider' }).click();
  return { page, section, form: section.getByRole('form', { name: 'Add a provider' }) };
}

test('provider settings: add an OpenAI-compatible server, test it, list its models, and never see the key again', async ({ app }) => {
  const openai = await startFakeOpenAi([], { models: ['qwen2.5', 'llama3.1'] });
  try {
    const { page, section, form } = await openAddProvider(app);
    await typeOver(form.getByRole('textbox', { name: 'Name' }), 'Local LLM');
    await typeOver(form.getByRole('textbox', { name: 'Base URL' }), `${openai.url}/v1`);
    await typeOver(form.getByLabel('API key'), 'sk-local-secret');
    await typeOver(form.getByRole('textbox', { name: 'Default model' }), 'qwen2.5');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await expect(section).toContainText('Local LLM');
    await expect(section).toContainText('API key stored');
    await expect(page.locator('body')).not.toContainText('sk-local-secret');

    await section.getByRole('button', { name: 'Test connection' }).click();
    await expect(section.getByRole('status')).toContainText('Connected to Local LLM: 2 models available.');
    await section.getByRole('button', { name: 'Models' }).click();
    const listed = section.getByRole('list', { name: 'Models of Local LLM' });
    await expect(listed).toContainText('llama3.1');
    // A listed model can be picked from here: it becomes the provider's default (defect 9).
    await expect(listed.getByRole('listitem').filter({ hasText: 'qwen2.5' })).toContainText('default');
    await listed.getByRole('button', { name: 'Use llama3.1 as default' }).press('Enter');
    await expect(section).toContainText('Default model llama3.1');
    await expect(listed.getByRole('listitem').filter({ hasText: 'llama3.1' })).toContainText('default');
    await expect(listed.getByRole('button', { name: 'Use qwen2.5 as default' })).toBeVisible();
    await page.screenshot(shot('provider-models'));
    expect(openai.requests.every((request) => request.headers.authorization === 'Bearer sk-local-secret')).toBe(true);

    await section.getByRole('button', { name: 'Edit Local LLM' }).click();
    await expect(section.getByLabel('API key')).toHaveValue('');
    await expect(section.getByLabel('API key')).toHaveAttribute('placeholder', 'Stored — type to replace');
    await expectAccessible(page);
    await page.screenshot(shot('providers'));
    expect(app.consoleErrors).toEqual([]);
  } finally {
    await openai.close();
  }
});

test('an Azure OpenAI provider: its endpoint, API version and deployment, tested with a short message', async ({ app }) => {
  const azure = await startFakeModelServer({ completionPath: '/openai/deployments/prod-4o/chat/completions', replies: [openAiTextReply(['OK'])] });
  try {
    const { page, section, form } = await openAddProvider(app);
    await form.getByRole('combobox', { name: 'Kind' }).selectOption('Azure OpenAI');
    await form.getByRole('textbox', { name: 'Name' }).pressSequentially('Azure');
    await form.getByRole('textbox', { name: 'Endpoint' }).pressSequentially(azure.url);
    await form.getByLabel('API key').pressSequentially('az-secret');
    await form.getByRole('textbox', { name: 'API version' }).pressSequentially('2025-04-01-preview');
    await form.getByRole('textbox', { name: 'Default deployment' }).pressSequentially('prod-4o');
    await page.screenshot(shot('provider-azure'));
    await form.getByRole('button', { name: 'Add provider' }).click();
    await section.getByRole('button', { name: 'Test connection' }).click();
    await expect(section.getByRole('status')).toContainText('Azure answered with prod-4o.');
    expect(azure.requests[0]).toMatchObject({ path: '/openai/deployments/prod-4o/chat/completions', query: 'api-version=2025-04-01-preview' });
    expect(azure.requests[0]!.headers['api-key']).toBe('az-secret');
    expect(app.consoleErrors).toEqual([]);
  } finally {
    await azure.close();
  }
});

test('a Google Gemini provider added in Settings: its models listed, a chat with one, and a function call it makes runs', async ({ app }) => {
  const gemini = await startFakeGemini(
    [geminiReply({ calls: [{ name: 'calculator', args: { expression: '6 * 7' }, thoughtSignature: 'e2e-signature' }] }), geminiReply({ text: ['It is ', '42.'] })],
    { models: [{ name: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash' }, { name: 'text-embedding-004', methods: ['embedContent'] }] },
  );
  try {
    const { page, section, form } = await openAddProvider(app);
    await form.getByRole('combobox', { name: 'Kind' }).selectOption('Google Gemini');
    await form.getByRole('textbox', { name: 'Name' }).pressSequentially('Gemini');
    await form.getByRole('textbox', { name: 'Base URL' }).pressSequentially(gemini.url);
    await form.getByLabel('API key').pressSequentially('AIza-e2e-secret');
    await expect(form.getByRole('textbox', { name: 'Default model' })).toHaveAttribute('placeholder', 'gemini-2.5-flash');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await section.getByRole('button', { name: 'Test connection' }).click();
    await expect(section.getByRole('status')).toContainText('Gemini');
    await expect(section).not.toContainText('AIza-e2e-secret');

    await page.keyboard.press('Control+1');
    await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'New chat', exact: true }).click();
    // The first model that generates content; embedding models are not offered.
    await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('gemini-2.5-flash');
    await page.getByRole('button', { name: 'No tools' }).click();
    const panel = page.getByRole('dialog', { name: 'Tools for this chat' });
    await panel.getByRole('textbox', { name: 'Search tools' }).pressSequentially('calc');
    await panel.getByRole('checkbox', { name: /Calculator/ }).check();
    await panel.getByRole('button', { name: 'Save' }).click();
    // The dialog gives focus back as it closes: typing starts once it is gone.
    await expect(panel).toBeHidden();
    await expect(page.getByRole('button', { name: /1 tool on/ })).toBeVisible();
    await send(page, 'What is 6 times 7?');
    const card = page.getByRole('article', { name: 'Tool call Calculator' });
    await expect(card.getByRole('status')).toHaveText('Succeeded');
    await expect(page.getByRole('log', { name: 'Messages' })).toContainText('It is 42.');
    const streamed = gemini.requests.filter((request) => request.path.endsWith(':streamGenerateContent'));
    expect(streamed.map((request) => request.path)).toEqual(['/v1beta/models/gemini-2.5-flash:streamGenerateContent', '/v1beta/models/gemini-2.5-flash:streamGenerateContent']);
    expect(JSON.stringify(streamed[1]!.body)).toContain('"thoughtSignature":"e2e-signature"');
    await page.screenshot(shot('chat-gemini'));
    expect(app.consoleErrors).toEqual([]);
  } finally {
    await gemini.close();
  }
});

test('the model is picked from the provider’s list: a new chat takes the first model listed, then the last chat’s; a provider with no model known asks to pick one', async ({ app }) => {
  const openai = await startFakeOpenAi([openAiTextReply(['Hi from llama.'])], { models: ['qwen2.5', 'llama3.1'] });
  try {
    const api = hostApi(app.host);
    await api('PUT', '/providers/local', { kind: 'openai', displayName: 'Local LLM', baseURL: `${openai.url}/v1`, apiKey: 'sk-local' });
    const { page } = app;
    await page.goto(app.host.url);
    await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'New chat', exact: true }).click();
    const model = page.getByRole('combobox', { name: 'Model' });
    await expect(model).toHaveValue('qwen2.5');
    // Typed, as a person picks from the list.
    await model.clear();
    await model.pressSequentially('llama3.1');
    await page.keyboard.press('Enter');
    await send(page, 'hello');
    await expect(page.getByRole('log', { name: 'Messages' })).toContainText('Hi from llama.');
    expect(openai.requests.at(-1)!.body).toMatchObject({ model: 'llama3.1' });

    await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'New chat', exact: true }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'New chat' })).toBeVisible();
    await expect(model).toHaveValue('llama3.1');

    // A name the provider does not list is kept, with a word (defect 9), and the word goes once a listed one is picked.
    await model.clear();
    await model.pressSequentially('lama3');
    await page.keyboard.press('Enter');
    const unknown = page.getByText('lama3 is not among the models Local LLM lists');
    await expect(unknown).toBeVisible();
    await expect(model).toHaveAttribute('aria-invalid', 'true');
    await page.screenshot(shot('unknown-model'));
    await model.clear();
    await model.pressSequentially('qwen2.5');
    await page.keyboard.press('Enter');
    await expect(unknown).toBeHidden();
    await expect(model).not.toHaveAttribute('aria-invalid');

    // A provider that names no model and lists none: the chat asks for one before it sends anything.
    await api('PUT', '/providers/bare', { kind: 'openai', displayName: 'Bare server', baseURL: 'http://127.0.0.1:9/v1' });
    await page.reload();
    await page.getByRole('combobox', { name: 'Provider' }).selectOption('Bare server');
    await expect(model).toHaveValue('');
    await expect(model).toHaveAttribute('placeholder', 'Pick a model');
    await expect(page.getByText('Pick a model (the Model field at the top) before sending.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Message' }).pressSequentially('anything');
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await page.screenshot(shot('pick-a-model'));
  } finally {
    await openai.close();
  }
});
