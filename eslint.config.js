// typescript-eslint with type information: the rules that catch real mistakes (floating
// promises, misused promises, unsafe any) on top of the recommended sets. Formatting is
// Prettier's job (`npm run format`), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/', 'node_modules/', 'data/', 'bench/results/', 'packages/client/src/openapi.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify plugins and test doubles are async by contract, with or without an await.
      '@typescript-eslint/require-await': 'off',
      // node:test's describe/test return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'test', 'it', 'suite'] },
          ],
        },
      ],
    },
  },
  {
    // A function of 80 lines or more hides its parts: split it by meaning (a route group by
    // what its routes do, a plugin into its hooks, a screen into its sections), not by count.
    files: ['src/**/*.ts', 'console/src/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 79 }] },
  },
  {
    // Tests read JSON answers as `any` on purpose: the assertions are the type check.
    // Migrations and dialect helpers take Kysely<any>: they run against every past schema.
    files: ['src/db/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // helpers are destructured from the objects that make them ({ call } = await shopApp())
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
