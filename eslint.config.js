// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', '.test-dist-*/', 'node_modules/', '.docsync-data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only the CLI layer prints (DESIGN.md, "Layers").
      'no-console': 'error',
    },
  },
  {
    files: ['src/cli/**/*.ts', 'test/bench/**/*.ts', '.ci/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read JSON answers of many shapes; typing each one would only restate the schemas.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
