import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { parleyPlugin } from './eslint/parleyPlugin.js';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/migrations/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/bin/**',
      'bench/**/*.js',
      // Generated from the API's OpenAPI document (npm run sdk:generate).
      'packages/sdk/src/schema.ts',
      'eslint.config.js',
      'eslint/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['vitest.config.ts', 'playwright.config.ts', 'scripts/*.mjs'],
          defaultProject: './tsconfig.base.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.{ts,js}'],
    plugins: { parley: parleyPlugin },
    rules: { 'parley/module-boundaries': 'error', 'parley/thin-routes': 'error' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, parley: parleyPlugin },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'parley/feature-boundaries': 'error',
    },
  },
  {
    // Tool configs must default-export by convention of the tools that read them; so must the Zapier app's entry.
    files: ['**/vite.config.ts', '**/vitest.config.ts', 'playwright.config.ts', '**/drizzle.config.ts', 'e2e/globalSetup.ts', 'apps/server/src/test/globalSetup.ts', 'packages/zapier-app/src/index.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
