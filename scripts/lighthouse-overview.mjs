// Lighthouse (user-flow API) on the console's overview as a signed-in user: the key is put in
// the tab's sessionStorage on the sign-in page, then the overview is loaded in the same tab with
// storage kept (disableStorageReset). Not a project dependency: see docs/PERFORMANCE.md, "Console (Lighthouse)".
// Usage: node lighthouse-overview.mjs <base> <networkId> <token> <out.json>
import { writeFileSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { startFlow } from 'lighthouse';

const [base, networkId, token, out] = process.argv.slice(2);
const browser = await puppeteer.launch({ executablePath: process.env.CHROME_PATH, headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage();
await page.goto(`${base}/console/sign-in`);
await page.evaluate((t) => sessionStorage.setItem('ans.console.apiKey', t), token);
const flow = await startFlow(page, { flags: { disableStorageReset: true, onlyCategories: ['performance', 'accessibility'] } });
await flow.navigate(`${base}/console/n/${networkId}`);
const result = (await flow.createFlowResult()).steps[0].lhr;
writeFileSync(out, JSON.stringify(result));
await browser.close();
