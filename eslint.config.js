/**
 * The linter: typescript-eslint's strict, type-checked rules over the server, the browser code, the
 * tests and the benches (each file checked with the tsconfig.json that compiles it). Rules are off
 * below only with their reason: each would need a rewrite of many files for no change in behaviour,
 * or contradicts a choice the code makes on purpose. `npm run lint` runs it; `npm test` runs that.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.data/',
      'src/generated/',
      'web/dashboard/generated/',
      'clients/typescript/src/generated/',
      'clients/typescript/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
