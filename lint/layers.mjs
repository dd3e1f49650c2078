// Layers as an allow-list: every file of the house (app/, preload/, main/,
// renderer/, shared/, testing/) belongs to exactly one layer of LAYERS (the
// first whose `files` matches), and may import only the layers its `may`
// names (its own included). A file that belongs to no layer is itself an
// error, so a new folder is placed on purpose, not by default. The same table
// is docs/architecture.md's; a test keeps the two alike.
import path from 'node:path';

/** What every layer of the core stands on: the contract, and the kit (with the logger). */
const KIT = ['shared', 'main/common'];

/**
 * Each layer: a name, the paths it holds (a folder ending in `/`, or a file
 * without its extension), the layers it may import, and what its tests may
 * import besides (test helpers, the composition root that builds a core).
 */
export const LAYERS = [
  { name: 'shared', files: ['shared/'], may: ['shared'] },
  { name: 'main/common', files: ['main/common/', 'main/log', 'main/app-identity'], may: ['shared', 'package.json'] },
  { name: 'main/api', files: ['main/api/'], may: [...KIT] },
  { name: 'main/secrets', files: ['main/secrets/'], may: [...KIT] },
  { name: 'main/settings', files: ['main/settings/'], may: [...KIT] },
  { name: 'main/search', files: ['main/search/'], may: [...KIT] },
  { name: 'main/tester', files: ['main/tester/'], may: [...KIT] },
  { name: 'main/questions', files: ['main/questions/'], may: [...KIT, 'main/api'] },
  { name: 'main/store', files: ['main/store/'], may: [...KIT, 'main/api', 'main/search'] },
  { name: 'main/providers', files: ['main/providers/'], may: [...KIT, 'main/api', 'main/secrets'] },
  { name: 'main/script-sandbox', files: ['main/script-sandbox/'], may: [...KIT] },
  { name: 'main/consent', files: ['main/consent/'], may: [...KIT, 'main/questions'] },
  { name: 'main/hooks', files: ['main/hooks/'], may: [...KIT] },
  { name: 'main/telemetry', files: ['main/telemetry/'], may: [...KIT] },
  { name: 'main/tools', files: ['main/tools/'], may: [...KIT, 'main/api', 'main/store', 'main/search', 'main/secrets', 'main/settings', 'main/tester', 'main/providers', 'main/questions', 'main/script-sandbox', 'main/consent', 'main/hooks'] },
  { name: 'main/mcp-client', files: ['main/mcp-client/'], may: [...KIT, 'main/api', 'main/store', 'main/secrets', 'main/questions', 'main/tools'] },
  { name: 'main/loop', files: ['main/loop/'], may: [...KIT, 'main/store', 'main/providers', 'main/tools', 'main/consent'] },
  { name: 'main/chat', files: ['main/chat/'], may: [...KIT, 'main/api', 'main/store', 'main/providers', 'main/questions', 'main/tools', 'main/consent', 'main/loop'] },
  { name: 'main/agents', files: ['main/agents/'], may: [...KIT, 'main/providers', 'main/questions', 'main/tools', 'main/consent', 'main/loop'] },
  { name: 'main/imports', files: ['main/imports/'], may: [...KIT, 'main/api', 'main/store', 'main/secrets', 'main/settings', 'main/tools'] },
  { name: 'main/mcp-apps', files: ['main/mcp-apps/'], may: [...KIT, 'main/api', 'main/store', 'main/questions', 'main/tools', 'main/mcp-client'] },
  { name: 'main/mcp-server', files: ['main/mcp-server/'], may: [...KIT, 'main/api', 'main/store', 'main/secrets', 'main/questions', 'main/tools', 'main/consent'] },
  // The bundles shipped with the app: their local functions stand on the tools layer; the composition root hands them to the store.
  { name: 'main/builtins', files: ['main/builtins/'], may: ['shared', 'main/tools'] },
  // The composition root: it may import what it composes, named one by one (not the hosts above it, not test support).
  {
    name: 'main/core',
    files: ['main/core/'],
    may: [
      ...KIT,
      ...['api', 'secrets', 'settings', 'search', 'tester', 'questions', 'store', 'providers', 'script-sandbox', 'consent', 'hooks', 'telemetry', 'tools', 'mcp-client', 'loop', 'chat', 'agents', 'imports', 'mcp-apps', 'mcp-server', 'builtins'].map((layer) => `main/${layer}`),
    ],
  },
  { name: 'main/server', files: ['main/server/'], may: [...KIT, 'main/api', 'main/secrets', 'main/mcp-server', 'main/core'] },
  // Test support, outside the product: vitest harnesses, cores for the bench and conformance runs, peer servers, data, worker shims.
  { name: 'testing', files: ['testing/'], may: ['shared', 'main/*', 'renderer/api'] },
  { name: 'app', files: ['app/'], may: ['shared', 'main/core', 'main/common', 'main/secrets', 'main/server'] },
  { name: 'preload', files: ['preload/'], may: ['shared'] },
  { name: 'renderer/api', files: ['renderer/api/'], may: ['shared'] },
  { name: 'renderer/i18n', files: ['renderer/i18n/'], may: ['shared'] },
  { name: 'renderer/state', files: ['renderer/state/'], may: ['shared', 'renderer/i18n'] },
  { name: 'renderer/queries', files: ['renderer/queries/'], may: ['shared', 'renderer/api', 'renderer/state', 'renderer/i18n'] },
  { name: 'renderer/components', files: ['renderer/components/'], may: ['shared', 'renderer/api', 'renderer/queries', 'renderer/state', 'renderer/i18n'] },
  { name: 'renderer/features', files: ['renderer/features/'], may: ['shared', 'renderer/api', 'renderer/queries', 'renderer/state', 'renderer/components', 'renderer/i18n'] },
  { name: 'renderer/testing', files: ['renderer/testing/'], may: ['shared', 'renderer/*', 'testing'] },
  { name: 'renderer', files: ['renderer/'], may: ['shared', 'renderer/*'] },
];

/**
 * What tests may import besides their layer's own list. Tests of the core
 * drive the house together (a core built by the composition root, peers from
 * testing/, the built-ins, the renderer's API client), so any core layer;
 * the built-ins, the shell and the renderer may use testing/ (and the
 * renderer's tests renderer/testing);
 * every other test keeps its layer's rules.
 */
export function testExtras(layer) {
  if (layer.name.startsWith('main/')) return ['main/*', 'renderer/api', 'testing'];
  // The shell and the renderer are tested against a real core, built by testing/
  // (components through renderer/testing, which renders them on one).
  if (layer.name === 'app') return ['testing'];
  if (layer.name.startsWith('renderer')) return ['testing', 'renderer/testing'];
  return [];
}

const withoutExtension = (file) => file.replace(/\.(d\.)?(m?[jt]sx?)$/, '');

/** The layer table as docs/architecture.md shows it (a test keeps the two alike). */
export function layerTable() {
  const code = (items) => items.map((item) => `\`${item}\``).join(', ');
  return [
    '| layer | holds | may import (besides itself) |',
    '| --- | --- | --- |',
    ...LAYERS.map((layer) => `| \`${layer.name}\` | ${code(layer.files)} | ${code(layer.may.filter((entry) => entry !== layer.name)) || '—'} |`),
  ].join('\n');
}

/** The layer a repository path (without extension) belongs to, or null. */
export function layerOf(relative) {
  for (const layer of LAYERS) {
    if (layer.files.some((entry) => (entry.endsWith('/') ? relative.startsWith(entry) : relative === entry))) return layer;
  }
  return null;
}

function allows(may, target) {
  return may.some((entry) => {
    if (entry.endsWith('/*')) return target.name.startsWith(entry.slice(0, -1));
    return target.name === entry || target.files.includes(entry) || target.files.includes(`${entry}/`);
  });
}

const HOUSE = /^(app|preload|main|renderer|shared|testing)\//;

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each file belongs to a layer of lint/layers.mjs and imports only the layers it may.' },
    schema: [],
    messages: {
      noLayer: '{{file}} belongs to no layer: add it to LAYERS in lint/layers.mjs (and the table in docs/architecture.md).',
      forbidden: '{{layer}} may not import {{target}} ({{specifier}}): it may import {{may}}. See the layer table in docs/architecture.md.',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    if (!HOUSE.test(file)) return {};
    const layer = layerOf(withoutExtension(file));
    const isTest = /\.test\.tsx?$/.test(file);
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const resolved = path.relative(root, path.resolve(path.dirname(context.filename), specifier)).split(path.sep).join('/');
      if (resolved === 'package.json') {
        if (layer && !layer.may.includes('package.json')) context.report({ node, messageId: 'forbidden', data: { layer: layer.name, target: 'package.json', specifier, may: layer.may.join(', ') } });
        return;
      }
      const target = layerOf(withoutExtension(resolved));
      if (!layer || !target || target === layer) return;
      const may = isTest ? [...layer.may, ...testExtras(layer)] : layer.may;
      if (!allows(may, target)) context.report({ node, messageId: 'forbidden', data: { layer: layer.name, target: target.name, specifier, may: may.join(', ') } });
    };
    return {
      Program(node) {
        if (!layer) context.report({ node, messageId: 'noLayer', data: { file } });
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { layers: layersRule } };
