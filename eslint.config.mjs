// Lint: typescript-eslint with type information; floating promises and non-exhaustive switches fail.
import js from '@eslint/js';
import css from '@eslint/css';
import tseslint from 'typescript-eslint';

/** The program files; the CSS files have their own language and rules (the last block). */
const CODE = ['**/*.ts', '**/*.js'];

/** What the website's script may use besides the language: the browser's objects it relies on. */
const BROWSER_GLOBALS = ['window', 'document', 'navigator', 'FormData', 'XMLHttpRequest', 'URLSearchParams', 'location', 'history', 'setTimeout'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', '*.js', '*.cjs', '*.mjs', 'scripts/**'] },
  { files: CODE, ...js.configs.recommended },
  ...tseslint.configs.recommendedTypeChecked.map((c) => ({ files: CODE, ...c })),
  {
    files: CODE,
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // The website's browser script (src/common/html/assets/web.js, served as is): plain script, browser globals only.
  {
    files: ['src/common/html/assets/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: 'script',
      parserOptions: { projectService: false },
      globals: Object.fromEntries(BROWSER_GLOBALS.map((name) => [name, 'readonly'])),
    },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      'no-undef': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
    },
  },
  // The website's style sheet (src/common/html/assets/web.css, served as is) and the extension's: CSS rules of @eslint/css.
  {
    files: ['src/common/html/assets/**/*.css'],
    language: 'css/css',
    plugins: { css },
    rules: {
      ...css.configs.recommended.rules,
      // `[hidden]` and `.visually-hidden` must win over any component rule: the two utilities' !important is the point.
      'css/no-important': 'off',
      // Deliberate fallbacks: `clip` beside `clip-path` for older screen-reader browsers, `ui-monospace` before Menlo and monospace.
      'css/use-baseline': 'off',
    },
  },
);
