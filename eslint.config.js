import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Formatting is prettier's (npm run format); the linter checks code, not layout.
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'error',
    },
  },
  {
    // A promise nobody awaits hides its failure: in a command line that is a lost error.
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // The request schemas are src/contract/requests.ts, the sandbox validates with them and the
    // CLI takes its request types from them, as types only: its read path loads no zod.
    files: ['src/api/**/*.ts', 'src/commands/**/*.ts', 'src/cli.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/contract/requests.js', '**/contract/answers.js'],
              allowTypeImports: true,
              message: 'the CLI takes its request and answer types from the contract, as types only (import type)',
            },
          ],
        },
      ],
    },
  },
  {
    // No route writes a shape of its own: bodies and queries are the contract's (src/contract/requests.ts).
    files: ['src/sandbox/routes/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'zod',
              allowTypeImports: true,
              message: 'declare request schemas in src/contract/requests.ts',
            },
          ],
        },
      ],
    },
  },
  {
    // The launcher is CommonJS (bin/package.json): a CommonJS entry starts sooner. So is the
    // single executable's entry (a SEA's main script is CommonJS).
    files: ['bin/**/*.js', 'scripts/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests and benches read loosely typed JSON answers, print their results, and match the
    // escape codes a terminal receives.
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-console': 'off', 'no-control-regex': 'off' },
  },
  {
    // No test waits on real time or measures it: the sandbox's clock, a condition (waitUntil)
    // or an event decides, so a test passes or fails the same on a busy machine. The parity
    // suite is the exception: it waits on the real service, whose time is real.
    files: ['test/**'],
    ignores: ['test/parity/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.name=/^(setTimeout|setInterval)$/]',
          message:
            'no real-time waits in tests: move the sandbox clock (advanceClock), or wait on a condition (waitUntil, turns)',
        },
        {
          // The sandbox clock's own timers (`clock.setTimeout`, `sb.store.clock.setTimeout`) are not real time.
          selector:
            "CallExpression[callee.property.name=/^(setTimeout|setInterval)$/]:not([callee.object.name='clock']):not([callee.object.property.name='clock'])",
          message:
            'no real-time waits in tests: move the sandbox clock (advanceClock), or wait on a condition (waitUntil, turns)',
        },
        {
          selector: "CallExpression[callee.name='sleep']",
          message:
            'no real-time waits in tests: move the sandbox clock (advanceClock), or wait on a condition (waitUntil, turns)',
        },
        {
          selector: "MemberExpression[object.name='performance'][property.name='now']",
          message: 'tests assert outcomes, not durations',
        },
        {
          selector:
            "BinaryExpression[operator='-'][right.type!='Literal'] > CallExpression.left[callee.object.name='Date'][callee.property.name='now']",
          message: 'tests assert outcomes, not durations',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:timers/promises', 'timers/promises'].map((name) => ({
            name,
            message: 'no real-time waits in tests',
          })),
        },
      ],
    },
  },
);
