// Lint enforces the process boundaries of ARCHITECTURE.md:
// only app/ and preload/ import electron at runtime; main/ may import its
// types; renderer/ and shared/ never touch node or electron.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Subpaths (fs/promises) are covered by each module's `name/*` pattern.
const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_') && !name.includes('/'));
const noNodeOrElectron = {
  paths: [{ name: 'electron', message: 'Only app/ and preload/ may use electron.' }],
  patterns: [
    { group: ['node:*'], message: 'renderer/ and shared/ run without node.' },
    ...nodeBuiltins.map((name) => ({
      group: [name, `${name}/*`],
      message: 'renderer/ and shared/ run without node.',
    })),
  ],
};

const electronTypesOnly = {
  name: 'electron',
  message: 'The core is plain Node: only type imports from electron (ARCHITECTURE.md).',
  allowTypeImports: true,
};
// main/core.ts wires the services; they never import it (or each other through it).
const SERVICES = ['api', 'chat', 'common', 'mcp', 'providers', 'search', 'secrets', 'settings', 'store', 'tools'];
const noCompositionRoot = { group: ['**/core.js'], message: 'Services never import the composition root (main/core.ts); it imports them.' };
// main/common/ is the kit services share, so it depends on none of them.
const noServices = {
  group: [...SERVICES.filter((name) => name !== 'common'), 'server', 'testing'].map((name) => `../${name}/*`),
  message: 'main/common/ is shared kit: it imports no service.',
};

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', 'test-results/', 'playwright-report/', '.artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      // Async functions that satisfy an async interface need no await.
      '@typescript-eslint/require-await': 'off',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='only']", message: 'No focused tests.' },
        { selector: "CallExpression[callee.property.name='skip']", message: 'No skipped tests.' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['main/**', 'builtins/**', 'scripts/**', 'e2e/**', '*.config.*'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [electronTypesOnly] }],
    },
  },
  {
    files: [...SERVICES.map((name) => `main/${name}/**`), 'builtins/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [electronTypesOnly], patterns: [noCompositionRoot] }],
    },
  },
  {
    files: ['main/common/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [electronTypesOnly], patterns: [noCompositionRoot, noServices] }],
    },
  },
  {
    // The core and the shell keep running for days: a promise nobody awaits
    // goes through inBackground (main/common/background.ts), which reports
    // its failure; `void promise` would turn a full disk into a crash.
    files: ['main/**/*.ts', 'app/**/*.ts', 'builtins/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
    },
  },
  {
    // Runs inside the page the UI bench drives.
    files: ['bench/ui-page.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['renderer/**', 'shared/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', noNodeOrElectron],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'renderer/ and shared/ run without node.' },
        { name: 'Buffer', message: 'renderer/ and shared/ run without node.' },
        { name: 'require', message: 'renderer/ and shared/ are ES modules without node.' },
      ],
    },
  },
  {
    // Server state serves the screens; a screen's code never leaks into it.
    files: ['renderer/queries/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { ...noNodeOrElectron, patterns: [...noNodeOrElectron.patterns, { group: ['**/features/**'], message: 'renderer/queries/ never imports features/.' }] },
      ],
    },
  },
  {
    files: ['renderer/**/*.tsx', 'renderer/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
