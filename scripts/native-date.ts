/**
 * Next's server replaces the global `Date` with a wrapper (next/dist/server/node-environment-
 * extensions/date.js) so that, with `cacheComponents`, a prerender that reads the clock is caught.
 * This service does not enable `cacheComponents` (next.config.mjs), and the wrapper costs every
 * `new Date(…)` a `Reflect.construct` and every `Date.now()` a check: ~450 ns per Date, 4–5 % of
 * the CPU of a /v1 list page of 50 rows, whose timestamps are Dates (docs/PERFORMANCE.md,
 * "/v1 at the speed of a bare server").
 * So: load Next, then put the native `Date` back. Dates made either way share one prototype, so
 * `instanceof Date` holds for both.
 */
export async function keepNativeDate<T>(load: () => Promise<T>): Promise<T> {
  const native = globalThis.Date;
  const result = await load();
  if (globalThis.Date !== native) {
    globalThis.Date = native;
    Object.defineProperty(native.prototype, 'constructor', { value: native, writable: true, configurable: true, enumerable: false });
  }
  return result;
}
