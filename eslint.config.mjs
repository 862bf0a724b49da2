import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.next/', '.data/', 'test-results/', 'playwright-report/', 'next-env.d.ts', 'db/migrations/'] },
  ...tseslint.configs.recommended,
  {
    // Async code: a promise nobody awaits loses its error, and one passed where a callback's result
    // is ignored runs unobserved. Type-aware, so the rules see what returns one. React's event
    // attributes may take an async handler (create-t3-app's setting); anywhere else a promise is
    // awaited, returned, or marked `void` on purpose.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // One import alias (docs/ARCHITECTURE.md): code outside the file's own folder is `@/…` from
    // the repository root, `./…` within a folder, never `../` (`npx tsx scripts/alias-imports.ts <dir>` fixes them).
    files: ['server/**', 'db/**', 'jobs/**', 'scripts/**', 'tests/**', 'app/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./', message: "Import with the '@/' alias (npx tsx scripts/alias-imports.ts <dir> rewrites it)." }] },
      ],
    },
  },
  {
    // The console's links prefetch on intent, not on sight (IntentLink; docs/PERFORMANCE.md, "Console (Lighthouse)").
    files: ['app/(console)/**/*.{ts,tsx}'],
    ignores: ['app/(console)/_components/ui/intent-link.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'next/link', message: "Use IntentLink from '@/app/(console)/_components/ui/intent-link' (prefetches on intent)." }],
          patterns: [{ regex: '^\\.\\./', message: "Import with the '@/' alias (npx tsx scripts/alias-imports.ts <dir> rewrites it)." }],
        },
      ],
    },
  },
);
