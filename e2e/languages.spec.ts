import type { Page } from '@playwright/test';
import { hostApi } from './fixtures/api.js';
import { openSettings } from './fixtures/settings.js';
import { expect, test } from './fixtures/app.js';
import { putHttpToolBundle, startHttpTarget } from './fixtures/http-target.js';
import { shot } from './fixtures/shots.js';
import { pseudoString as P } from '../renderer/i18n/pseudo.js';

/**
 * Texts on screen that did not come from the catalogue: in the pseudo-locale
 * every catalogue text is accented and bracketed, so a run of plain ASCII
 * letters is one that escaped it. Code, keys and names marked translate="no"
 * are what they are in every language.
 */
async function escapedTexts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((roots) => {
    const found: string[] = [];
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        // Besides code and names: what people wrote (a chat's title) is theirs.
        if (!parent || parent.closest('code, kbd, [translate="no"], option[lang], .list__title, .chat-header__title') || !parent.checkVisibility()) continue;
        const outside = (node.textContent ?? '').replace(/⟦[^⟧]*⟧/g, '');
        if (/[A-Za-z]{2,}/.test(outside)) found.push(outside.trim());
      }
      for (const element of root.querySelectorAll('[aria-label], [title], [placeholder]')) {
        for (const name of ['aria-label', 'title', 'placeholder']) {
          const value = element.getAttribute(name);
          // Dates and times are Intl's (a <time>, or a title that is one), in the language's own format.
          const intlDate = /\d{4}/.test(value ?? '') && /\d:\d\d/.test(value ?? '');
          if (value && !intlDate && /[A-Za-z]{2,}/.test(value.replace(/⟦[^⟧]*⟧/g, '')) && !element.closest('[translate="no"], time')) found.push(`${name}="${value}"`);
        }
      }
    }
    return found;
  });
}

test('the pseudo-locale: every text of the translated screens comes from the catalogue', async ({ app }) => {
  const { page } = app;
  await page.addInitScript(() => localStorage.setItem('toolbelt.ui', JSON.stringify({ state: { screen: 'settings', theme: 'system', language: 'pseudo' }, version: 1 })));
  await page.goto(app.host.url);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('⟦');
  // The whole Settings screen, every section in turn, and the frame around it.
  const sections = page.locator('.settings-nav__item');
  await expect(sections).toHaveCount(8);
  for (let index = 0; index < 8; index++) {
    await sections.nth(index).click();
    await expect(sections.nth(index)).toHaveAttribute('aria-current', 'page');
    expect(await escapedTexts(page, '.app-frame'), `section ${index + 1}`).toEqual([]);
  }
  await expect(page.locator('section[aria-labelledby="about-title"] [data-testid="app-version"]')).toBeVisible();
  // The provider form, opened: the caret lands in its first field.
  await sections.first().click();
  await page.locator('.card__title-row .button').first().click();
  await expect(page.locator('.provider-form select').first()).toBeFocused();
  expect(await escapedTexts(page, '.provider-form')).toEqual([]);
  await page.screenshot(shot('pseudo-settings'));

  // The chat screen: no chat open, then a chat's welcome and message box.
  await page.keyboard.press('Control+1');
  await expect(page.locator('.chat-pane--empty')).toBeVisible();
  expect(await escapedTexts(page, '.chat-pane--empty')).toEqual([]);
  const api = hostApi(app.host);
  await api('PUT', '/providers/echo', { kind: 'scripted', displayName: 'Echo' });
  // The chat reaches the built-in bundle (Core) whole, so its tools panel says how they are offered and why.
  const CORE = '01a2008d-7400-7000-8000-03e7f090115c';
  await api('POST', '/chats', { providerId: 'echo', model: 'scripted', title: 'Pseudo chat', tools: { mode: 'auto', selected: [], bundles: [{ bundleID: CORE }], discovery: 'auto' } });
  await page.locator('.chat-list').getByRole('button', { name: /^Pseudo chat/ }).click();
  await expect(page.locator('.chat-pane__welcome')).toBeVisible();
  expect(await escapedTexts(page, '.chat-list, .chat-header, .chat-pane__welcome, .composer')).toEqual([]);
  await page.screenshot(shot('pseudo-chat'));
  // Its tools panel: how they are offered and why, the bundles and the tools to pick.
  await page.locator('.chat-header').getByRole('button', { name: /⟦/ }).filter({ hasText: '5' }).click();
  const panel = page.getByRole('dialog');
  await expect(panel.locator('.tool-discovery__now')).toContainText(
    P('All {{count, number}} tools are offered: search starts past {{maxTools, number}} tools or {{maxTokens, number}} tokens of definitions.')
      .replace('{{count, number}}', '5')
      .replace('{{maxTools, number}}', '30')
      .replace('{{maxTokens, number}}', '12,800'),
  );
  expect(await escapedTexts(page, '[role="dialog"]')).toEqual([]);
  await page.screenshot(shot('pseudo-chat-tools'));
  expect(app.consoleErrors).toEqual([]);
});

test('choosing a language in Settings with the keyboard: German, Chinese and Arabic (right to left), kept after a reload', async ({ app }) => {
  const { page } = app;
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(app.host.url);
  await openSettings(page, 'Appearance and keys');
  const picker = page.getByLabel('Language');
  await picker.focus();
  // A closed select picks the option whose text starts with what is typed.
  await page.keyboard.type('Deu');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Einstellungen');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('button', { name: /Werkzeuge/ })).toBeVisible();
  await page.screenshot(shot('settings-de'));

  await page.getByLabel('Sprache').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('设置');
  await page.screenshot(shot('settings-zh-Hans'));

  await page.getByLabel('语言').focus();
  await page.keyboard.press('End');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('الإعدادات');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  // The layout mirrors: the sidebar is on the right, paths and versions still read left to right.
  const sidebar = await page.locator('.sidebar').boundingBox();
  expect(sidebar!.x).toBeGreaterThan(500);
  await page.screenshot(shot('settings-ar-appearance'));
  await page.getByRole('navigation', { name: 'أقسام الإعدادات' }).getByRole('button', { name: 'حول' }).click();
  await expect(page.getByTestId('data-dir')).toHaveCSS('direction', 'ltr');
  await page.screenshot(shot('settings-ar'));
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(shot('settings-ar-dark'));

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('الإعدادات');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

  // A chat in Arabic: the list on the right, the message box's send button at its left end, the person's words as typed.
  const api = hostApi(app.host);
  await api('PUT', '/providers/echo', { kind: 'scripted', displayName: 'Echo' });
  await api('POST', '/chats', { providerId: 'echo', model: 'scripted', title: 'محادثة تجريبية' });
  await page.keyboard.press('Control+1');
  const row = page.getByRole('navigation', { name: 'المحادثات' }).getByRole('button', { name: /^محادثة تجريبية/ });
  // By keyboard (Playwright's click waits forever on this row once the page is right to left, though it stays put).
  await row.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: 'الرسالة' }).pressSequentially('مرحبا');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('log', { name: 'الرسائل' })).toContainText('You said: مرحبا');
  const list = await page.locator('.chat-list').boundingBox();
  const send = await page.getByRole('button', { name: 'إرسال' }).boundingBox();
  const box = await page.getByRole('textbox', { name: 'الرسالة' }).boundingBox();
  expect(list!.x).toBeGreaterThan(box!.x);
  expect(send!.x).toBeLessThan(box!.x);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot(shot('chat-ar'));
  expect(app.consoleErrors).toEqual([]);
});

test('the pseudo-locale on the Tools screen: a tool, a run in its tester, its editor, the connection and import dialogs, the MCP server form', async ({ app }) => {
  const { target, close } = await startHttpTarget((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ θερμοκρασία: 21 }));
  });
  try {
    const api = hostApi(app.host);
    // Names people write are theirs: Greek here, so that no English can hide in them.
    await putHttpToolBundle(api, {
      target,
      bundle: { slug: 'kairos', displayName: 'Καιρός' },
      slug: 'poli',
      tool: {
        displayName: 'Πόλη',
        description: 'Ο καιρός μιας πόλης.',
        argSchema: { type: 'object', properties: { city: { type: 'string', title: 'Όνομα' } }, required: ['city'] },
        impl: { method: 'GET', urlTemplate: `http://${target}/\${city}` },
      },
    });
    const { page } = app;
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.addInitScript(() => localStorage.setItem('toolbelt.ui', JSON.stringify({ state: { screen: 'tools', theme: 'system', language: 'pseudo' }, version: 1 })));
    await page.goto(app.host.url);
    await page.getByRole('region', { name: P('Bundles') }).getByRole('button', { name: /^Καιρός/ }).click();
    await page.getByRole('region', { name: P('Tools') }).getByRole('button', { name: /^Πόλη/ }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Πόλη' })).toBeVisible();
    expect(await escapedTexts(page, '.app-frame'), 'a tool').toEqual([]);

    // A run in the tester: its verdict, value, find box and attempts.
    const tester = page.getByRole('region', { name: P('Tester') });
    await tester.getByLabel('Όνομα').pressSequentially('Αθήνα');
    await page.keyboard.press('Control+Enter');
    const response = tester.getByRole('region', { name: P('Response') });
    await expect(response.locator('.attempt').first()).toBeVisible();
    await response.locator('.attempt summary').first().click();
    expect(await escapedTexts(page, '.app-frame'), 'a run').toEqual([]);
    await page.screenshot(shot('pseudo-tester'));

    // The editor of a new version, every group of its form.
    await page.getByRole('button', { name: P('New version…') }).click();
    const editor = page.getByRole('region', { name: P('Tool editor') });
    await expect(editor.getByRole('status')).toBeVisible();
    expect(await escapedTexts(page, '.editor'), 'the editor').toEqual([]);
    await editor.getByRole('button', { name: P('Cancel') }).click();

    // The bundle's connection, the import dialog and the MCP server form.
    await page.getByRole('button', { name: P('Connection of bundle {{name}}').replace('{{name}}', 'Καιρός') }).click();
    const connection = page.getByRole('dialog');
    await connection.getByLabel(P('Sign-in')).selectOption({ index: 4 });
    expect(await escapedTexts(page, '[role="dialog"]'), 'the connection').toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: P('Import…') }).click();
    expect(await escapedTexts(page, '[role="dialog"]'), 'the import').toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: P('Add MCP server') }).click();
    expect(await escapedTexts(page, '[role="dialog"]'), 'the MCP server form').toEqual([]);
    await page.keyboard.press('Escape');
    expect(app.consoleErrors).toEqual([]);
  } finally {
    close();
  }
});
