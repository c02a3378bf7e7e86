// Draws the installed app's icons from the favicon: public/favicon.svg rendered by headless
// Chromium (playwright-core, as the browser suites use it) at 192 and 512 px, written as
// public/icon-192.png and public/icon-512.png. The PNGs are committed; run this again after
// the favicon changes:
//
//   (. .wasm-tools/env.sh && node web/offline/icons.mjs)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const svg = fs.readFileSync(path.join(repo, 'public/favicon.svg'));

const browser = await chromium.launch({
  executablePath: process.env.KPG_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
for (const size of [192, 512]) {
  const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
  const src = `data:image/svg+xml;base64,${svg.toString('base64')}`;
  await page.setContent(`<body style="margin:0"><img src="${src}" width="${size}" height="${size}" style="display:block"></body>`);
  await page.waitForFunction(() => document.querySelector('img').complete);
  const out = path.join(repo, `public/icon-${size}.png`);
  fs.writeFileSync(out, await page.screenshot({ omitBackground: true }));
  console.log(`${path.relative(repo, out)}: ${fs.statSync(out).size} B`);
  await page.close();
}
await browser.close();
