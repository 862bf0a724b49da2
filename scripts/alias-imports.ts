/**
 * Rewrites imports that climb out of their folder (`'../../../_lib/trpc'`) into the one alias,
 * `'@/app/(console)/_lib/trpc'` (tsconfig `paths`: `@/*` is the repository root). Imports of a
 * file's own folder (`'./campaign-form'`) stay as they are.
 *
 *   npx tsx scripts/alias-imports.ts app e2e
 *
 * Mechanical and idempotent: run it again after a merge brings climbing imports back (ESLint's
 * `no-restricted-imports` in eslint.config.mjs names them).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const SOURCE = /\.(ts|tsx|mts|cts)$/;
// `from '../x'`, `import '../x'`, `import('../x')`, `export … from '../x'`
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.\/[^'"]*)\2/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(file).isDirectory()) return files(file);
    return SOURCE.test(name) ? [file] : [];
  });
}

export function aliasImports(file: string, source: string): string {
  return source.replace(SPECIFIER, (_match, lead: string, quote: string, specifier: string) => {
    const target = path.relative(root, path.resolve(path.dirname(file), specifier));
    if (target.startsWith('..')) throw new Error(`${file}: ${specifier} leaves the repository`);
    return `${lead}${quote}@/${target.split(path.sep).join('/')}${quote}`;
  });
}

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  process.stderr.write('usage: npx tsx scripts/alias-imports.ts <dir>…\n');
  process.exit(2);
}
let changed = 0;
for (const file of dirs.flatMap((dir) => files(path.resolve(root, dir)))) {
  const before = readFileSync(file, 'utf8');
  const after = aliasImports(file, before);
  if (after !== before) {
    writeFileSync(file, after);
    changed += 1;
  }
}
process.stdout.write(`${changed} file(s) rewritten\n`);
