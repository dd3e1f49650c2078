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
    return import('monaco-editor');
  })();
  return loading;
}
