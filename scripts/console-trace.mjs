// The long tasks of one signed-in load of the console's overview, with what ran in each: a
// Chromium trace at Lighthouse's 4x CPU slowdown and mobile viewport. Not a project dependency:
// run it from the scratch folder of docs/PERFORMANCE.md, "Console (Lighthouse)" (puppeteer-core).
// Usage: CHROME_PATH=/usr/bin/chromium node console-trace.mjs <base> <networkId> <token>
// Each line: start (ms after navigation), duration (ms, already slowed 4x), the trace events
// inside (script evaluated, timer or event that started it, layout…), and the components that
// rendered in it when they call performance.mark('r:<Name>') (add those while investigating).
import puppeteer from 'puppeteer-core';

const [base, networkId, token] = process.argv.slice(2);
const browser = await puppeteer.launch({ executablePath: process.env.CHROME_PATH, headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage();
await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true });
await page.goto(`${base}/console/sign-in`);
await page.evaluate((t) => sessionStorage.setItem('ans.console.apiKey', t), token);
const cdp = await page.createCDPSession();
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await page.tracing.start({
  categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading'],
});
await page.goto(`${base}/console/n/${networkId}`, { waitUntil: 'networkidle0' });
await new Promise((resolve) => setTimeout(resolve, 1500));
const { traceEvents } = JSON.parse(Buffer.from(await page.tracing.stop()).toString('utf8'));
await browser.close();

const starts = traceEvents.filter((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.includes(`/console/n/`));
const t0 = (starts.at(-1) ?? traceEvents.find((e) => e.name === 'navigationStart')).ts;
// The renderer's main thread: where the scripts ran.
const scriptTime = new Map();
for (const e of traceEvents)
  if (e.name === 'FunctionCall' || e.name === 'EvaluateScript')
    scriptTime.set(`${e.pid}:${e.tid}`, (scriptTime.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
const mainThread = [...scriptTime].sort((a, b) => b[1] - a[1])[0][0];
const onMain = (e) => `${e.pid}:${e.tid}` === mainThread;
const SHOWN = new Set([
  'EvaluateScript',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'ParseHTML',
  'EventDispatch',
  'UpdateLayoutTree',
  'Layout',
  'MajorGC',
  'MinorGC',
  'RunMicrotasks',
  'Paint',
  'PrePaint',
  'Commit',
  'v8.compile',
]);
let blocking = 0;
for (const task of traceEvents.filter((e) => onMain(e) && e.name === 'RunTask' && e.dur > 10_000 && e.ts >= t0).sort((a, b) => a.ts - b.ts)) {
  const within = (e) => onMain(e) && e.ts >= task.ts && e.ts < task.ts + task.dur;
  const inner = traceEvents
    .filter((e) => within(e) && e.ph === 'X' && e.dur > 2000 && SHOWN.has(e.name))
    .slice(0, 6)
    .map((e) => `${e.name}${e.args?.data?.url ? `(${e.args.data.url.split('/').pop().slice(0, 24)})` : ''} ${(e.dur / 1000).toFixed(0)}`);
  const rendered = {};
  for (const m of traceEvents.filter((e) => within(e) && e.name?.startsWith('r:'))) rendered[m.name.slice(2)] = (rendered[m.name.slice(2)] ?? 0) + 1;
  const ms = task.dur / 1000;
  blocking += Math.max(0, ms - 50);
  console.log(
    `${((task.ts - t0) / 1000).toFixed(0).padStart(5)} ${ms.toFixed(0).padStart(4)} ms  ${inner.join(' | ')}  ${Object.keys(rendered).join(',')}`,
  );
}
console.log(`time over 50 ms in tasks after navigation: ${blocking.toFixed(0)} ms`);
