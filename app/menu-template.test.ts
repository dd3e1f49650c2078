import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { menuTemplate } from './menu-template.js';

const roles = (items: MenuItemConstructorOptions[]): string[] =>
  items.flatMap((item) => [...(item.role ? [item.role] : []), ...(Array.isArray(item.submenu) ? roles(item.submenu) : [])]);

describe('the application menu', () => {
  it('offers developer tools only when the app is not packaged', () => {
    for (const isMac of [true, false]) {
      expect(roles(menuTemplate({ isMac, isPackaged: false }))).toContain('toggleDevTools');
      expect(roles(menuTemplate({ isMac, isPackaged: true }))).not.toContain('toggleDevTools');
    }
  });

  it('keeps the standard editing, zoom and window menus in both', () => {
    for (const isPackaged of [true, false]) {
      expect(roles(menuTemplate({ isMac: false, isPackaged }))).toEqual(expect.arrayContaining(['editMenu', 'reload', 'zoomIn', 'zoomOut', 'resetZoom', 'windowMenu']));
    }
    expect(roles(menuTemplate({ isMac: true, isPackaged: true }))[0]).toBe('appMenu');
  });
});
