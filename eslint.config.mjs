import tseslint from 'typescript-eslint';

/** One import alias (docs/ARCHITECTURE.md): `@/…` from the repository root, never `../`. */
const ALIAS_ONLY = { regex: '^\\.\\./', message: "Import with the '@/' alias (npx tsx scripts/alias-imports.ts <dir> rewrites it)." };

/**
 * The request flows one way (docs/ARCHITECTURE.md): transports (server/transport: server, rest,
 * console-transport, health) → routers (with server/trpc.ts) → services (with server/synth and
 * server/jobs, the job builder, beneath them; the worker's tasks in jobs/ call services) → the kit
 * (server/http: idempotency, budgets, bodies, pages, locking; server/auth) → db → domain (the
 * shared vocabulary). Only the entry points in scripts/ (scripts/runtime.ts) start the worker.
 * A lower layer importing a higher one is refused here; each block repeats ALIAS_ONLY, since a file's last matching block sets the rule.
 */
const layer = (files, forbidden) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx'],
  rules: { 'no-restricted-imports': ['error', { patterns: [ALIAS_ONLY, ...forbidden] }] },
});
const NOT_THE_CONSOLE = { regex: '^@/app/', message: 'The server does not import the console (app/).' };
const NOT_THE_TRANSPORT = {
  regex: '^@/server/transport/',
  message: 'Routers and procedures sit below the transports (server/transport/), which call them.',
};
const NOT_TRANSPORTS = {
  regex: '^@/server/(trpc$|routers(/|$)|transport/)',
  message: 'Services and jobs sit below the transports and routers: they take plain inputs and a transaction, and throw AppError.',
};
const NOT_THE_WORKER = {
  regex: '^@/jobs/',
  message:
    "server/ sits below the worker: a job is built with server/jobs/enqueue.ts, the worker's tasks (jobs/) call services, and only scripts/ (scripts/runtime.ts) starts the worker.",
};
const KIT_BELOW_PROCEDURES = {
  regex: '^@/server/(trpc$|routers(/|$)|transport/|services/|synth(/|$)|jobs/)',
  message:
    'server/http/ and server/auth/ are the kit procedures and services use: they import no procedure, router, transport, service, synthesis or job builder.',
};
const DB_AT_THE_BOTTOM = { regex: '^@/(server|jobs|app)/', message: 'db/ imports no service, job or console code (only domain/ is below it).' };

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
    files: ['server/**', 'db/**', 'domain/**', 'jobs/**', 'scripts/**', 'tests/**', 'app/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [ALIAS_ONLY] }],
    },
  },
  layer(['server/**/*.ts'], [NOT_THE_CONSOLE, NOT_THE_WORKER]),
  layer(['server/routers/**/*.ts', 'server/trpc.ts'], [NOT_THE_CONSOLE, NOT_THE_WORKER, NOT_THE_TRANSPORT]),
  layer(['server/services/**/*.ts', 'server/synth/**/*.ts', 'server/jobs/**/*.ts'], [NOT_THE_CONSOLE, NOT_TRANSPORTS, NOT_THE_WORKER]),
  layer(['jobs/**/*.ts'], [NOT_THE_CONSOLE, NOT_TRANSPORTS]),
  layer(['server/http/**/*.ts', 'server/auth/**/*.ts'], [NOT_THE_CONSOLE, NOT_THE_WORKER, KIT_BELOW_PROCEDURES]),
  layer(['db/**/*.ts'], [DB_AT_THE_BOTTOM]),
  layer(['domain/**/*.ts'], [{ regex: '^@/(?!domain/)', message: 'domain/ is the shared vocabulary: it imports nothing of ours but domain/.' }]),
  {
    // The console's links prefetch on intent, not on sight (IntentLink; docs/PERFORMANCE.md, "Console (Lighthouse)").
    files: ['app/(console)/**/*.{ts,tsx}'],
    ignores: ['app/(console)/_components/ui/intent-link.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'next/link', message: "Use IntentLink from '@/app/(console)/_components/ui/intent-link' (prefetches on intent)." }],
          patterns: [ALIAS_ONLY],
        },
      ],
    },
  },
);
