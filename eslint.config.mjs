import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.next/', '.data/', 'test-results/', 'playwright-report/', 'next-env.d.ts', 'db/migrations/'] },
  ...tseslint.configs.recommended,
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
