import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { keepNativeDate } from '@/scripts/native-date';

const native = globalThis.Date;
const require = createRequire(import.meta.url);
// The module Next's server evaluates at start (node-environment.js); it replaces globalThis.Date.
const nextDateExtension = require.resolve('next/dist/server/node-environment-extensions/date.js');
function loadNextDateExtension(): void {
  delete require.cache[nextDateExtension];
  require(nextDateExtension);
}

afterEach(() => {
  globalThis.Date = native;
  Object.defineProperty(native.prototype, 'constructor', { value: native, writable: true, configurable: true });
});

describe('keepNativeDate (scripts/start.ts loads Next through it)', () => {
  it("Next's server replaces the global Date when it loads", () => {
    loadNextDateExtension();
    expect(globalThis.Date).not.toBe(native);
    expect(new Date(0).constructor).not.toBe(native);
  });

  it('puts the native Date back after that, and Dates stay Dates', async () => {
    await keepNativeDate(async () => loadNextDateExtension());
    expect(globalThis.Date).toBe(native);
    expect(new Date(0).constructor).toBe(native);
    expect(new Date('2026-11-25T00:00:00.000Z').toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(new Date(0) instanceof Date).toBe(true);
  });
});
