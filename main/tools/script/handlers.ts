import type { Handlers } from '../../api/dispatcher.js';
import { readScript } from '../../scripts/signature.js';

/** What the editor asks of a script as a person types it: what saving it would read from its function. */
export function scriptHandlers(): Pick<Handlers, 'tools.readScript'> {
  return {
    'tools.readScript': async ({ language, source }) => {
      const { code: _code, ...read } = await readScript(source, language);
      return read;
    },
  };
}
