import type { Page } from '@playwright/test';
import { hostApi } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';
import { putHttpToolBundle, startHttpTarget } from './fixtures/http-target.js';
import { shot } from './fixtures/shots.js';

/**
 * Every screen in German (long words), Chinese and Arabic (right to left) at
 * 1000×700, light and dark: the screenshots are kept to be looked at, and
 * each screen is checked for what breaks first in another language: the page
 * scrolling sideways, and controls whose words are cut off.
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth + 1) found.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${window.innerWidth})`);
    for (const element of document.querySelectorAll<HTMLElement>('button, [role="tab"], label, legend, h1, h2, h3, .badge, .status-pill')) {
      // Texts for screen readers only (one pixel, clipped) are not seen.
      if (!element.checkVisibility() || element.closest('[aria-hidden="true"], .visually-hidden') || element.getBoundingClientRect().width <= 2) continue;
      const style = getComputedStyle(element);
      // An ellipsis is a choice (a long name in a list); hidden overflow without one cuts words off.
      if (style.textOverflow === 'ellipsis' || element.querySelector('[style*="ellipsis"]')) continue;
      if (element.scrollWidth > element.clientWidth + 1 && style.overflowX !== 'visible') found.push(`cut off: ${element.tagName.toLowerCase()} “${element.textContent?.trim().slice(0, 60)}”`);
    }
    return found;
  });
}

/**
 * In a right-to-left page, English a tool or server wrote must still read left to right (its full stop at its end):
 * each place that shows it gives it its own direction. The texts of `texts` that are on screen, where they are not.
 */
async function mixedDirectionProblems(page: Page, texts: readonly string[]): Promise<string[]> {
  return page.evaluate((wanted) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const element = node.parentElement;
      // A text that is the English itself (a sentence of the window's that names a tool reads right to left, as it should).
      if (!element || !wanted.some((each) => text.trim().startsWith(each)) || !element.checkVisibility()) continue;
      if (getComputedStyle(element).direction !== 'ltr') found.push(`right to left: ${element.tagName.toLowerCase()}.${element.className} “${text.trim().slice(0, 60)}”`);
    }
    return found;
  }, texts);
}

const CORE = '01a2008d-7400-7000-8000-03e7f090115c';

for (const language of ['en', 'de', 'zh-Hans', 'ar'] as const) {
  test(`every screen in ${language} at 1000×700, light and dark, with nothing cut off`, async ({ app }) => {
    test.setTimeout(150_000);
    const { target, close } = await startHttpTarget((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ temperature: 21, summary: 'clear' }));
    });
    try {
      const api = hostApi(app.host);
      await putHttpToolBundle(api, {
        target,
        bundle: { slug: 'city-forecasts', displayName: 'City forecasts' },
        slug: 'city-weather',
        tool: {
          displayName: 'City weather',
          description: 'The weather in a city today.',
          argSchema: { type: 'object', properties: { city: { type: 'string', title: 'City' } }, required: ['city'] },
          impl: { method: 'GET', urlTemplate: `http://${target}/\${city}` },
        },
      });
      await api('PUT', '/providers/script', {
        kind: 'scripted',
        displayName: 'Script',
        script: [{ toolCalls: [{ name: 'calculator', args: { expression: '6 * 7' } }] }, { text: 'The answer is **42**.' }],
      });
      await api('POST', '/chats', {
        providerId: 'script',
        model: 'scripted',
        title: 'Sums',
        tools: { mode: 'auto', selected: [{ bundleID: CORE, slug: 'calculator', version: 'v1', requiresApproval: true }] },
      });
      const { page } = app;
      await page.setViewportSize({ width: 1000, height: 700 });
      await page.addInitScript((chosen) => localStorage.setItem('toolbelt.ui', JSON.stringify({ state: { screen: 'chat', theme: 'system', language: chosen }, version: 1 })), language);
      await page.goto(app.host.url);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      const look = async (name: string, dark = false) => {
        expect(await layoutProblems(page), name).toEqual([]);
        if (language === 'ar') expect(await mixedDirectionProblems(page, ['The weather in a city today.', 'City weather']), name).toEqual([]);
        await page.screenshot(shot(`${language}-${name}`));
        if (dark) {
          await page.emulateMedia({ colorScheme: 'dark' });
          // Code editors follow the system's dark mode as the page does (they stayed white).
          for (const editor of await page.locator('.monaco-editor').all()) await expect(editor).toHaveClass(/\bvs-dark\b/);
          await page.screenshot(shot(`${language}-${name}-dark`));
          await page.emulateMedia({ colorScheme: 'light' });
          for (const editor of await page.locator('.monaco-editor').all()) await expect(editor).not.toHaveClass(/\bvs-dark\b/);
        }
      };

      // Chat: the list, a message, the approval, the answer with its tool card.
      const row = page.locator('.chat-list .list__item').filter({ hasText: 'Sums' });
      await row.focus();
      await page.keyboard.press('Enter');
      const box = page.locator('.composer textarea');
      await expect(box).toBeFocused();
      await box.pressSequentially('6 × 7');
      await page.keyboard.press('Enter');
      const approval = page.getByRole('dialog');
      await expect(approval).toBeVisible();
      await look('chat-approval', true);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('log')).toContainText('42');
      await expect(approval).toBeHidden();
      await look('chat', true);
      await page.keyboard.press('Control+k');
      await expect(page.getByRole('dialog')).toBeVisible();
      await look('palette');
      await page.keyboard.press('Escape');
      // The chat's tools panel and its settings.
      await page.locator('.chat-header__controls > button').first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await look('chat-tools', true);
      await page.keyboard.press('Escape');
      await page.locator('.chat-header__icons .icon-button').first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await look('chat-settings');
      await page.keyboard.press('Escape');

      // Tools: a tool, a run in the tester, the editor, the importer, the MCP server form.
      await page.keyboard.press('Control+2');
      await page.locator('.pane--bundles').getByRole('button', { name: /^City forecasts/ }).click();
      await page.locator('.pane--tools').getByRole('button', { name: /^City weather/ }).click();
      await page.locator('.tester').getByRole('textbox', { name: 'City' }).pressSequentially('Oslo');
      await page.keyboard.press('Control+Enter');
      await expect(page.locator('.response .status-pill').first()).toBeVisible();
      await look('tools-tester', true);
      await page.locator('.definition__actions .button, .definition__head .button').filter({ hasText: /…/ }).first().click();
      await expect(page.locator('.editor')).toBeVisible();
      await look('tools-editor', true);
      // The same editor as a recipe: its builder, with a step found by search (not the tool itself) and its argument set.
      await page.locator('.editor select').first().selectOption('recipe');
      await page.locator('.recipe-search input').pressSequentially('calculator');
      // Enter at once, as a person who knows the name: it picks the best match of all that was typed.
      await page.locator('.recipe-search input').press('Enter');
      await expect(page.locator('.recipe-step')).toHaveCount(1);
      await expect(page.locator('.recipe-step__calls')).toContainText('calculator');
      await page.locator('.recipe-step .recipe-value select').first().selectOption({ index: 1 });
      await page.locator('.recipe-step .recipe-value input').first().pressSequentially('6 * 7');
      await page.locator('.recipe-step details summary').click();
      await look('tools-recipe', true);
      await page.locator('.editor__footer .button').last().click();
      // Leaving the changed draft asks first: discard it.
      await page.getByRole('dialog').locator('.button').nth(1).click();
      await page.locator('.pane--bundles .pane__actions .button, .pane--bundles .button').filter({ hasText: /…/ }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await look('tools-import');
      await page.keyboard.press('Escape');
      await page.locator('.pane--bundles .pane__actions .button').first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await look('tools-mcp-server', true);
      await page.keyboard.press('Escape');
      // The bundle's connection, signing in in the browser (the longest form).
      await page.locator('.pane--bundles .list__actions .icon-button').nth(1).click();
      const connection = page.getByRole('dialog');
      await connection.locator('select').first().selectOption('oauth2-browser');
      await look('tools-connection');
      await page.keyboard.press('Escape');

      // Settings: each section.
      await page.keyboard.press('Control+3');
      const sections = page.locator('.settings-nav__item');
      await expect(sections).toHaveCount(8);
      for (let index = 0; index < 8; index++) {
        await sections.nth(index).click();
        await look(`settings-${index + 1}`, index === 0);
      }
      expect(app.consoleErrors).toEqual([]);
    } finally {
      close();
    }
  });
}
