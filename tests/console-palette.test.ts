import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The console's dark theme turns its palette around in console.css (app/(console)/README.md, "Dark
 * mode"): a colour that is not in that list keeps its light value in the dark theme (a white
 * panel on a dark page, dark text on dark). This finds the console's colours and checks each.
 */

const CONSOLE = path.join(import.meta.dirname, '..', 'app', '(console)');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The colours console.css sets again under `@variant dark`. */
function turnedInDark(): Set<string> {
  const css = readFileSync(path.join(CONSOLE, 'console.css'), 'utf8');
  const start = css.indexOf('@variant dark {');
  expect(start, 'console.css has an `@variant dark` block').toBeGreaterThan(-1);
  const block = css.slice(start, css.indexOf('\n    }\n', start));
  return new Set([...block.matchAll(/--color-([a-z]+(?:-\d+)?)\s*:/g)].map((m) => m[1]!));
}

const UTILITY =
  /(?<![\w-])((?:[\w@[\]=&-]+:)*)(?:bg|text|border(?:-[trblxy])?|ring|outline|fill|stroke|from|via|to|divide|accent|placeholder|decoration|caret)-(white|black|[a-z]+-\d{2,3})(?:\/\d+)?(?![\w-])/g;
const VARIABLE = /var\(--color-(white|black|[a-z]+-\d{2,3})\)/g;

describe('the console palette in the dark theme', () => {
  const turned = turnedInDark();
  const files = sources(CONSOLE);

  it('finds the console sources and the dark palette', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(turned).toContain('white');
    expect(turned).toContain('slate-900');
  });

  it('turns every colour a class or a var() of the console uses (outside `dark:`)', () => {
    const missing = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [, variants, colour] of text.matchAll(UTILITY)) {
        if (!variants!.split(':').includes('dark') && !turned.has(colour!)) missing.add(`${colour} (${path.relative(CONSOLE, file)})`);
      }
      for (const [, colour] of text.matchAll(VARIABLE)) {
        if (!turned.has(colour!)) missing.add(`${colour} (${path.relative(CONSOLE, file)})`);
      }
    }
    expect([...missing], 'add these to the `@variant dark` block of console.css (with AA contrast), or give them a `dark:` class').toEqual([]);
  });

  it('has no hex colours in components (they do not turn dark): use var(--color-…) instead', () => {
    const hex = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/['"`]#[0-9a-fA-F]{3,8}['"`]/g)].map((m) => `${m[0]} (${path.relative(CONSOLE, file)})`),
    );
    expect(hex).toEqual([]);
  });
});
