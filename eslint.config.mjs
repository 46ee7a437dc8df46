// typescript-eslint's recommended rules over the TypeScript sources, tests and benches.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/fixtures/**', '.vscode-test/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        __dirname: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        queueMicrotask: 'readonly',
        fetch: 'readonly',
        require: 'readonly',
        module: 'writable',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  // a refusal names its kind through a core/errors.ts factory; only codes with a structured factory
  // (not_stopped, no_lease, not_owner, …) may still build one by hand when their sentence is more specific
  {
    files: ['src/**/*.ts'],
    ignores: ['src/core/errors.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "NewExpression[callee.name='RetroError'][arguments.0.type='Literal']:not([arguments.0.value=/^(not_stopped|no_lease|not_owner|lease_held|stale_generation)$/])",
          message: "Use the code's factory from core/errors.ts (badRequest, notFound, unsupported, …).",
        },
      ],
    },
  },
  // tests read loosely typed structured results
  { files: ['test/**/*.ts', 'bench/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
