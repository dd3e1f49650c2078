import type { Handlers } from '../../api/dispatcher.js';
import type { ReadScriptFn } from '../../script-sandbox/signature-reader.js';

/** What the editor asks of a script as a person types it: what saving it would read from its function. */
export function scriptHandlers(readScript: ReadScriptFn): Pick<Handlers, 'tools.readScript'> {
  return {
    'tools.readScript': async ({ language, source }) => {
      const { code: _code, stopped: _stopped, ...read } = await readScript(source, language);
      return read;
    },
  };
}
