/** How the benchmark writes numbers, verdicts and its log lines (report and console alike). */

export const log = (msg: string) => process.stdout.write(`[bench] ${msg}\n`);

export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
export const fmtMs = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : 'n/a');
export const fmtMiB = (kib: number) => (Number.isFinite(kib) ? (kib / 1024).toFixed(0) : 'n/a');
/** Row counts as the report names them: 10 k, 1 M, or the exact number. */
export const fmtRows = (n: number) => (n >= 1e6 && n % 1e5 === 0 ? `${n / 1e6} M` : n >= 1e3 && n % 100 === 0 ? `${n / 1e3} k` : fmtInt(n));
export const verdict = (met: boolean) => (met ? '**met**' : '**MISSED**');
