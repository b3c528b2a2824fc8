// Typed lint with zero warnings allowed (`npm run lint`): no floating promises, exhaustive switches.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'bench/results/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.spec.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Read time from the injected Clock.' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Read time from the injected Clock.' },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'libs/core/src/clock/**', 'apps/cli/**'],
    rules: {
      'no-restricted-syntax': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    // The board page (browser TSX): its own programs, DOM types and Preact's JSX.
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    languageOptions: {
      parserOptions: {
        project: [
          './web/board/tsconfig.json',
          './web/board/tsconfig.node.json',
          './web/guest/tsconfig.json',
          './web/guest/tsconfig.node.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  // The page's one wall-clock reader (a browser has no injected Clock).
  { files: ['web/board/src/state/clock.ts', 'web/guest/src/wall-clock.ts'], rules: { 'no-restricted-syntax': 'off' } },
  prettier,
);
