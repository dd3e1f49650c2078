import { builtinModules } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import packageJson from './package.json' with { type: 'json' };

/**
 * One config, four build targets, chosen by --mode:
 *   renderer (default)  the React UI              -> out/renderer/
 *   main                the core + browser host   -> out/main/server.js
 *   app                 the Electron main process -> out/app/main.js
 *   preload             the sandboxed preload     -> out/preload/preload.cjs
 * scripts/build.mjs runs all four; `vite` alone serves the renderer with HMR.
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

function nodeTarget(entry: string, outDir: string, fileName: string, format: 'es' | 'cjs'): UserConfig {
  return {
    publicDir: false,
    logLevel: 'warn',
    build: {
      ssr: true,
      target: 'node20',
      outDir,
      emptyOutDir: true,
      sourcemap: true,
      minify: false,
      reportCompressedSize: false,
      rollupOptions: {
        input: path.join(root, entry),
        external: format === 'cjs' ? ['electron'] : isExternalForNode,
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
    case 'app':
      return nodeTarget('app/main.ts', out('app'), 'main.js', 'es');
    case 'preload':
      return nodeTarget('preload/preload.ts', out('preload'), 'preload.cjs', 'cjs');
    default:
      return rendererConfig;
  }
});
