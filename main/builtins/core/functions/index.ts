import type { LocalFunction } from '../../../tools/local/registry.js';
import { askUser } from './ask-user.js';
import { calculate } from './calculate.js';
import { currentTime } from './current-time.js';
import { readTextFile } from './read-text-file.js';
import { toolSearch } from './tool-search.js';

/** The functions the Core bundle's tools name in `impl.func`. */
export const CORE_FUNCTIONS: Record<string, LocalFunction> = {
  'core.currentTime': currentTime,
  'core.calculate': calculate,
  'core.askUser': askUser,
  'core.readTextFile': readTextFile,
  'core.toolSearch': toolSearch,
};
