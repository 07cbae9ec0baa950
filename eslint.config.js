import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const noElectron = {
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'electron', message: "Only electron/main and electron/preload may import 'electron' (docs/architecture.md)." }],
      patterns: [{ group: ['electron/*'], message: "Only electron/main and electron/preload may import 'electron' (docs/architecture.md)." }],
    },
  ],
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'playwright-report/**', 'models/**/*.onnx', 'tests/fixtures/heldout/**', 'tests/fixtures/blind/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
      ...noElectron,
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // An effect returns nothing or a cleanup function. An expression body returns whatever the
      // call returned (scrollIntoView() is a Promise in current Chromium → `destroy_ is not a function`).
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name=/^use(Layout|Insertion)?Effect$/] > ArrowFunctionExpression.arguments:first-child[expression=true]:not([body.type='UnaryExpression'][body.operator='void']):not([body.type=/^(ArrowFunctionExpression|FunctionExpression)$/])",
          message: 'An effect must return nothing or a cleanup function: use a block body `() => { ... }` (or `() => void f()`).',
        },
      ],
    },
  },
  {
    files: ['electron/main/**', 'electron/preload/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
