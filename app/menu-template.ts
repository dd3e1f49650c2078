import type { MenuItemConstructorOptions } from 'electron';

/**
 * Standard menus so copy/paste, zoom and quit behave as people expect.
 * Developer tools only in a development build: in the packaged app they
 * would hand anyone at the keyboard the renderer's whole API.
 */
export function menuTemplate(options: { isMac: boolean; isPackaged: boolean }): MenuItemConstructorOptions[] {
  return [
    ...(options.isMac ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(options.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
}
