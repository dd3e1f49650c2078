import { Menu } from 'electron';
import { menuTemplate } from './menu-template.js';

export function buildMenu(isPackaged: boolean): Menu {
  return Menu.buildFromTemplate(menuTemplate({ isMac: process.platform === 'darwin', isPackaged }));
}
