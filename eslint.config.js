// Lint enforces the boundaries of ARCHITECTURE.md: only app/ and preload/
// import electron at runtime; main/ may import its types; renderer/ and
// shared/ never touch node or electron; and every file imports only the
// layers lint/layers.mjs allows it.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import i18next from 'eslint-plugin-i18next';
import layers from './lint/layers.mjs';

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
    // Component tests and their helper run in a DOM under vitest and build a real core: their own tsconfig.
    files: ['renderer/**/*.test.tsx', 'renderer/**/*.test.ts', 'renderer/testing/**'],
    languageOptions: { parserOptions: { projectService: false, project: './renderer/tsconfig.test.json', tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['main/**', 'testing/**', 'scripts/**', 'e2e/**', '*.config.*'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [electronTypesOnly] }],
    },
  },
  {
    // Layers are an allow-list (lint/layers.mjs, the table in docs/architecture.md): every file of the house
    // belongs to one and imports only what it may; a file that belongs to none is an error.
    files: ['app/**', 'preload/**', 'main/**', 'renderer/**', 'shared/**', 'testing/**'],
    plugins: { local: layers },
    rules: { 'local/layers': 'error' },
  },
  {
    // The core and the shell keep running for days: a promise nobody awaits
    // goes through inBackground (main/common/background.ts), which reports
    // its failure; `void promise` would turn a full disk into a crash.
    files: ['main/**/*.ts', 'app/**/*.ts', 'testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
    },
  },
  {
    // Runs inside the page the UI bench drives.
    files: ['bench/ui-page.js', 'bench/apps-page.js'],
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
    files: ['renderer/**/*.tsx', 'renderer/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Every text a person reads comes from the i18n catalogue (renderer/i18n): a literal in JSX, or in an attribute
    // people read (labels, titles, placeholders, alt texts), is an error. Technical values (class names, ids, roles)
    // are not texts.
    files: ['renderer/**/*.tsx'],
    ignores: ['renderer/**/*.test.tsx', 'renderer/testing/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': {
            include: ['^aria-(label|description|placeholder|roledescription|valuetext)$', '^title$', '^placeholder$', '^alt$', '[lL]abel$', '^description$', '^subtitle$', '^empty$', '^hint$', '^help$', '^message$', '^summary$', '^heading$'],
          },
          'should-validate-template': true,
        },
      ],
    },
  },
);
