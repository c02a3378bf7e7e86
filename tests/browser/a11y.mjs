// axe-core on the page as learners use it: at 1280x800 with a pod explained, the Share
// dialog's report, on a phone's Events & Explain view, in Korean, and inside an embed on the
// example article. Zero critical
// or serious violations, kept at zero (the list of what axe found is printed on failure).
//
//   node tests/browser/a11y.mjs [dist] [artifacts]
import fs from 'node:fs';
import path from 'node:path';
import { serve } from './server.mjs';
import { assert, axeViolations, finish, firstEmbedFrame, launch, live, seekTo, slow, test } from './harness.mjs';

const dist = path.resolve(process.argv[2] || 'dist');
const artifacts = path.resolve(process.argv[3] || 'target/browser-artifacts');
fs.mkdirSync(artifacts, { recursive: true });

const { server, url } = await serve(dist, '/a11y/');
const browser = await launch();

/** The limits step of Labels vs taints at 2:30, its first pending pod explained. */
async function limitsExplained(page) {
  await page.goto(url);
  await live(page);
  await page.selectOption('.lesson-picker select', 'labels-taints');
  for (let i = 0; i < 6; i++) await page.click('.lesson-nav button.primary');
  await seekTo(page, 150000);
  if (await page.locator('.phone-views').isVisible()) await page.click('.phone-view[data-view="cluster"]');
  await page.click('.tray .pod >> nth=0');
  await page.waitForSelector('.explanation[data-kind="pod"] .answer');
}

function none(found, where) {
  assert(found.length === 0, `${where}: ${found.length} critical or serious violations:\n       ${found.join('\n       ')}`);
}

for (const lang of ['en', 'ko']) {
  await test(`the page at 1280x800 with a pod explained (${lang}): no critical or serious violation`, async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: lang === 'ko' ? 'ko-KR' : 'en-US' });
    const page = await ctx.newPage();
    await limitsExplained(page);
    assert(await page.evaluate(() => document.documentElement.lang) === lang, `the page is in ${lang}`);
    await page.screenshot({ path: path.join(artifacts, `a11y-explain-${lang}.png`) });
    none(await axeViolations(page), `1280x800, Explain open, ${lang}`);
    await ctx.close();
  });
}

await test('the Share dialog\'s Report to Karpenter tab: no critical or serious violation', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await ctx.newPage();
  await limitsExplained(page);
  await page.click('.share-btn');
  await page.click('.tab-report');
  await page.waitForSelector('textarea.report-block', { timeout: slow(30000) });
  await page.screenshot({ path: path.join(artifacts, 'a11y-share-report.png') });
  none(await axeViolations(page), 'Share → Report to Karpenter');
  await ctx.close();
});

await test('a phone, each view (Korean): no critical or serious violation', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ko-KR', isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  await limitsExplained(page);
  for (const view of ['inspect', 'cluster', 'manifests', 'lesson']) {
    await page.click(`.phone-view[data-view="${view}"]`);
    none(await axeViolations(page), `phone, ${view}`);
  }
  await ctx.close();
});

await test('inside an embed on the example article: no critical or serious violation in the frame', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(url + 'example-article.html');
  const frame = await firstEmbedFrame(page);
  await frame.waitForSelector('[data-lane="pool/hello-world"]', { timeout: slow(30000) });
  await frame.waitForSelector('.editor.cm-ready', { timeout: slow(20000) }).catch(() => {});
  none(await axeViolations(frame), 'the embed');
  await ctx.close();
});

await browser.close();
server.close();
finish();
