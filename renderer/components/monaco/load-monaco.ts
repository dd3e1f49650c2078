// Monaco is large: it loads on first use, from our own bundle, with its
// workers built by Vite (no CDN, nothing fetched from elsewhere).
import type * as MonacoApi from 'monaco-editor';
import EditorWorker from 'monaco-editor/editor/editor.worker.js?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker.js?worker';
import TsWorker from 'monaco-editor/language/typescript/ts.worker.js?worker';

type Monaco = typeof MonacoApi;

let loading: Promise<Monaco> | null = null;

export function loadMonaco(): Promise<Monaco> {
  loading ??= (async () => {
    self.MonacoEnvironment = {
      getWorker: (_workerId: string, label: string) =>
        label === 'json' ? new JsonWorker() : label === 'typescript' || label === 'javascript' ? new TsWorker() : new EditorWorker(),
    };
    const monaco = await import('monaco-editor');
    // Monaco's own Ctrl+M switches what Tab does for every editor at once, on top of each editor's setting, so an
    // editor could not be switched back; JsonEditor binds the key itself, per the person's choice (a keyboard trap otherwise).
    monaco.editor.addKeybindingRule({ keybinding: monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyM, command: '-editor.action.toggleTabFocusMode' });
    monaco.editor.addKeybindingRule({ keybinding: monaco.KeyMod.WinCtrl | monaco.KeyMod.Shift | monaco.KeyCode.KeyM, command: '-editor.action.toggleTabFocusMode' });
    return monaco;
  })();
  return loading;
}
