import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { builtinModules } from 'node:module'

const nodeBuiltins = builtinModules.flatMap((m) => [m, `node:${m}`])

/**
 * Which packages each process may use (electron, node, react). Which folder may import which is
 * dependency-cruiser's (.dependency-cruiser.cjs, docs/architecture.md "Layers").
 */
const restrict = (message, { paths = [], patterns = [] }) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: paths.map((name) => ({ name, message })),
      patterns: patterns.map((group) => ({ group: [group], message })),
    },
  ],
})

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'node_modules/**',
      '.tools/**',
      'test-results/**',
      'playwright-report/**',
      'src/demo/corpus/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-empty-object-type': [
        'error',
        { allowInterfaces: 'with-single-extends' },
      ],
      'no-console': 'off',
    },
  },
  {
    // Type-aware rules, from the tsconfig project that holds each file (tsconfig.json's
    // references): a promise nobody awaits or catches, an async function where a void callback
    // is expected, a switch over a union that misses a member. TypeScript files only: the
    // .js/.mjs/.cjs files (eslint and dependency-cruiser configs, scripts, server fixtures) are in
    // no tsconfig project, so there are no types to check them with.
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    // Before the folder rules below, which override it for their own files: unit tests, their
    // helpers and the desktop app's pure modules (menu, window state, launch arguments) run
    // without Electron.
    files: [
      '**/*.test.ts',
      'src/test/**/*.ts',
      'src/main/app-menu.ts',
      'src/main/window-state.ts',
      'src/main/launch-args.ts',
    ],
    rules: restrict('unit tests and the pure desktop modules run under plain Node', {
      paths: ['electron'],
      patterns: ['electron/*'],
    }),
  },
  {
    // The helpers of src/shared's and the renderer's tests run where those do.
    files: ['src/shared/**/*.ts', 'src/test/support/model/**/*.ts'],
    rules: restrict('src/shared is pure TypeScript: no electron, node or react imports', {
      paths: ['electron', 'react', 'react-dom', ...nodeBuiltins],
      patterns: ['node:*'],
    }),
  },
  {
    files: ['src/main/core/**/*.ts'],
    rules: restrict('src/main/core must run under plain Node: never import electron or UI code', {
      paths: ['electron', 'react', 'react-dom'],
      patterns: ['electron/*'],
    }),
  },
  {
    files: ['src/main/cli/**/*.ts', 'src/main/host/**/*.ts'],
    rules: restrict('the CLI and the browser host run without Electron', {
      paths: ['electron', 'react', 'react-dom'],
      patterns: ['electron/*'],
    }),
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'src/preload/web-bridge.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict('the renderer reaches the main process only through window.ragConsole', {
      paths: ['electron', ...nodeBuiltins],
      patterns: ['node:*'],
    }),
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Components hold views, hooks and models hold logic (docs/architecture.md, "Inside a
    // panel"): a function past 100 lines moves its state into a `use-*.ts` hook and its
    // decisions into a tested model beside it.
    files: ['src/renderer/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 100, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  {
    // Playwright fixtures must destructure their (possibly empty) dependencies.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['src/demo/**/*.ts'],
    rules: restrict('demo servers are stand-alone programs: no electron, no react', {
      paths: ['electron', 'react'],
    }),
  },
)
