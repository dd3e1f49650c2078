import { builtinModules } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import packageJson from './package.json' with { type: 'json' };

/**
 * One config, four build targets, chosen by --mode:
 *   renderer (default)  the React UI and the MCP App relay -> out/renderer/
 *   main                the core + browser host   -> out/main/server.js
 *   sandbox-worker      the script sandbox's thread -> out/main/sandbox-worker.js (beside the core, after it)
 *   signature-worker    the thread scripts' signatures are read on -> out/main/signature-worker.js (the same)
 *   import-worker       the process API descriptions are converted in -> out/main/import-worker.js (the same)
 *   pdf-worker          the thread a PDF's text is read on -> out/main/pdf-worker.js (the same)
 *   app                 the Electron main process -> out/app/main.js
 *   preload             the sandboxed preload     -> out/preload/preload.cjs
 *   bench               npm run bench's runner    -> out/bench/run.js
 * scripts/build.mjs runs the first four, scripts/bench.mjs the last; `vite` alone serves the renderer with HMR.
 */
const root = import.meta.dirname;
const out = (...parts: string[]) => path.join(root, 'out', ...parts);

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];
const runtimeDependencies = Object.keys(packageJson.dependencies);

function isExternalForNode(id: string): boolean {
  return (
    id === 'electron' ||
    nodeBuiltins.includes(id) ||
    runtimeDependencies.some((name) => id === name || id.startsWith(`${name}/`))
  );
}

/** Every package stays a package: the bench imports dev tools (Playwright, the SDK clients) as they are installed. */
const isPackage = (id: string) => !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('\0');

function nodeTarget(entry: string, outDir: string, fileName: string, format: 'es' | 'cjs', external: (id: string) => boolean = isExternalForNode, emptyOutDir = true): UserConfig {
  return {
    publicDir: false,
    logLevel: 'warn',
    build: {
      ssr: true,
      target: 'node20',
      outDir,
      emptyOutDir,
      sourcemap: true,
      minify: false,
      reportCompressedSize: false,
      rollupOptions: {
        input: path.join(root, entry),
        external: format === 'cjs' ? ['electron'] : external,
        output: { format, entryFileNames: fileName, codeSplitting: false },
      },
    },
    ssr: format === 'cjs' ? { noExternal: true, target: 'node' } : { target: 'node' },
  };
}

const rendererConfig: UserConfig = {
  root: path.join(root, 'renderer'),
  base: './',
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: out('renderer'),
    emptyOutDir: true,
    target: 'chrome130',
    // Monaco's maps alone are tens of megabytes; the renderer ships without them.
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 4096,
    rollupOptions: {
      // The window, and the relay page MCP Apps run in (served from a second origin by main/server/app-sandbox.ts).
      input: { main: path.join(root, 'renderer', 'index.html'), appSandbox: path.join(root, 'renderer', 'app-sandbox.html') },
    },
  },
  server: {
    host: '127.0.0.1',
    strictPort: false,
    proxy: {
      '/api/': {
        target: process.env.TOOLBELT_DEV_API ?? 'http://127.0.0.1:5174',
        changeOrigin: true,
        // renderer/api/*.ts are modules served at /api/… too: only calls to the
        // core carry the bearer token, so everything else stays with Vite.
        bypass: (request) => (request.headers.authorization ? undefined : request.url),
        // The host refuses foreign origins; the dev server is a trusted
        // local proxy, so it speaks for the page.
        configure: (proxy) => proxy.on('proxyReq', (request) => request.removeHeader('origin')),
      },
    },
  },
};

export default defineConfig(({ mode }) => {
  switch (mode) {
    case 'main':
      return nodeTarget('main/server/entry.ts', out('main'), 'server.js', 'es');
    case 'sandbox-worker':
      // Into the core's folder, which the main target has just emptied and filled.
      return nodeTarget('main/script-sandbox/sandbox-worker.ts', out('main'), 'sandbox-worker.js', 'es', isExternalForNode, false);
    case 'signature-worker':
      return nodeTarget('main/script-sandbox/signature-worker.ts', out('main'), 'signature-worker.js', 'es', isExternalForNode, false);
    case 'import-worker':
      return nodeTarget('main/imports/import-worker.ts', out('main'), 'import-worker.js', 'es', isExternalForNode, false);
    case 'pdf-worker':
      return nodeTarget('main/chat/pdf-worker.ts', out('main'), 'pdf-worker.js', 'es', isExternalForNode, false);
    case 'app':
      return nodeTarget('app/main.ts', out('app'), 'main.js', 'es');
    case 'bench':
      // The bench measures the core as it ships: built by the same transform, not through tsx's loader.
      return nodeTarget('bench/run.ts', out('bench'), 'run.js', 'es', isPackage);
    case 'preload':
      return nodeTarget('preload/preload.ts', out('preload'), 'preload.cjs', 'cjs');
    default:
      return rendererConfig;
  }
});
