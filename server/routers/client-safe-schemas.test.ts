import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The console's forms validate with the procedures' own zod schemas, so every
 * `server/routers/**\/*.types.ts` must bundle for the browser: no Node
 * built-ins, no database code, no package but zod. (Presenters may import
 * rows' *types* and pure helpers; queries stay in services.)
 */
const root = path.resolve(import.meta.dirname, '../..');

function typesModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return typesModules(file);
    return entry.name.endsWith('.types.ts') ? [file] : [];
  });
}

describe('API schemas are importable by the console', () => {
  it('every *.types.ts bundles for the browser with zod as its only package', async () => {
    const entryPoints = typesModules(path.join(root, 'server/routers'));
    expect(entryPoints.length).toBeGreaterThan(40);
    const result = await build({
      entryPoints,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      outdir: 'out',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    const packages = [...new Set(inputs.filter((i) => i.includes('node_modules/')).map((i) => i.split('node_modules/')[1]!.split('/')[0]))];
    expect(packages).toEqual(['zod']);
    const serverOnly = inputs.filter((i) => /(^|\/)(db\/(client|schema\/(?!statuses))|server\/(logger|secrets|http\/pagination|trpc))/.test(i));
    expect(serverOnly).toEqual([]);
  });
});
