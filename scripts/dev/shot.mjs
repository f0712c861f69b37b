import { chromium } from '@playwright/test';
const [url, out, lang] = process.argv.slice(2);
const b = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const p = await b.newPage({ viewport: { width: 1200, height: 700 } });
await p.goto(url);
await p.waitForTimeout(1500);
if (lang) {
  await p.getByText(lang, { exact: true }).click();
  await p.waitForTimeout(800);
}
await p.screenshot({ path: out });
await b.close();
