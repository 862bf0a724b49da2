/**
 * The guard of patches/: every patch is applied to the dependency `npm install` brought. A release
 * that renames a patched file (tRPC's dist chunks are content-hashed) or an install that skipped
 * `postinstall` leaves a patch silently absent; this fails instead, naming the patch and the file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/server-process';

interface PatchedFile {
  file: string;
  /** Lines the patch adds (without the leading '+'), blank ones left out. */
  added: string[];
}

function filesOf(patch: string): PatchedFile[] {
  const files: PatchedFile[] = [];
  for (const line of patch.split('\n')) {
    const target = /^\+\+\+ b\/(.+)$/.exec(line);
    if (target) files.push({ file: target[1]!, added: [] });
    else if (line.startsWith('+') && line.slice(1).trim() !== '') files.at(-1)?.added.push(line.slice(1));
  }
  return files;
}

const patches = readdirSync(path.join(ROOT, 'patches')).filter((name) => name.endsWith('.patch'));

describe('patches/', () => {
  it('has a patch for each dependency patches/README.md describes, and no other', () => {
    const readme = readFileSync(path.join(ROOT, 'patches', 'README.md'), 'utf8');
    const described = [...readme.matchAll(/`patches\/([^`]+\.patch)`/g)].map((m) => m[1]!);
    expect(described.sort()).toEqual([...patches].sort());
  });

  for (const name of patches) {
    it(`${name} is applied to what npm install brought`, () => {
      const files = filesOf(readFileSync(path.join(ROOT, 'patches', name), 'utf8'));
      expect(files.length).toBeGreaterThan(0);
      for (const { file, added } of files) {
        const installed = path.join(ROOT, file);
        expect(existsSync(installed), `${file}, which ${name} patches, is not installed: the dependency changed; re-make or drop the patch`).toBe(
          true,
        );
        const text = readFileSync(installed, 'utf8');
        const missing = added.filter((line) => !text.includes(line));
        expect(missing, `${file} lacks lines ${name} adds: run npm install (postinstall applies it)`).toEqual([]);
      }
    });
  }
});
