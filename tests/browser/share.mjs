// Browser tests of share links, the linked workspace, and the scenario as a file, on the
// built page (dist/) in headless Chromium (playwright-core driving /usr/bin/chromium).
//
//   node tests/browser/share.mjs [dist] [artifacts] [kpg]
//
// `kpg` (default target/release/kpg) makes the command-line links the page must open the
// same way. Prints "N passed, M failed" and exits non-zero on any failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { serve } from './server.mjs';
import { assert, editorText, fillEditor, finish, launch, live, seekTo, settled, slow, stepUntil, test } from './harness.mjs';

const dist = path.resolve(process.argv[2] || 'dist');
const artifacts = path.resolve(process.argv[3] || 'target/browser-artifacts');
const kpg = path.resolve(process.argv[4] || 'target/release/kpg');
fs.mkdirSync(artifacts, { recursive: true });

const { server, url } = await serve(dist, '/blog/kpg/');
const browser = await launch();
const errors = [];
/** A fresh browser profile (its own storage), with console errors collected. */
async function profile(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', acceptDownloads: true, ...options });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return { context, page };
}
/** The node cards on screen, as sorted "name type" strings, and the clock. */
async function cluster(page) {
  const cards = await page.$$eval('[data-node]', (els) => els.map((e) => `${e.dataset.node} ${e.dataset.instanceType}`).sort());
  const clock = await page.locator('.clock').getAttribute('data-ms');
  return { cards, clock: Number(clock) };
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The learner's own workspace: the limits lab, edited, played a while, a node selected.
const mine = await profile();
await mine.page.goto(url);
await live(mine.page);
await mine.page.waitForSelector('.summary');
await mine.page.selectOption('.lesson-picker select', 'labels-taints');
for (let i = 0; i < 6; i++) await mine.page.click('.lesson-nav button.primary');
await mine.page.click('.doc-tab:has-text("busybox")');
const myEdit = '# my own note, kept through everything\n';
{
  await fillEditor(mine.page, myEdit + await editorText(mine.page));
}
// The speed chosen travels with the link; the instant is reached by stepping, not playing.
await mine.page.click('.speed >> text=60×');
await stepUntil(mine.page, () => document.querySelectorAll('[data-lane="pool/platform"] .node.ready').length >= 2);
await mine.page.locator('[data-lane="pool/platform"] .node.ready').first().click();
await mine.page.waitForSelector('.explanation');
const sharerView = await cluster(mine.page);

let pageLink = '';
await test('the Share dialog gives a link that reopens the same cluster at the same instant, in a fresh profile', async () => {
  await mine.page.click('.share-btn');
  pageLink = await mine.page.locator('.share-link').inputValue();
  assert(/#kpg1\.[A-Za-z0-9_-]+$/.test(pageLink), `a versioned fragment: ${pageLink.slice(0, 80)}…`);
  assert(pageLink.startsWith(url), `the link is the page's own address: ${pageLink.slice(0, 60)}`);
  const chars = Number(await mine.page.locator('.share-length').getAttribute('data-chars'));
  assert(chars === pageLink.length && chars < 8192, `the dialog counts the link: ${chars}`);
  assert(await mine.page.locator('.too-long').count() === 0, 'a short link has no length warning');
  await mine.page.screenshot({ path: path.join(artifacts, 'share-01-dialog.png') });
  await mine.page.waitForFunction(() => document.activeElement && document.activeElement.matches('.copy-link'));
  await mine.page.keyboard.press('Escape');
  await mine.page.waitForFunction(() => !document.querySelector('.share') && document.activeElement.matches('.share-btn'));

  const fresh = await profile();
  await fresh.page.goto(pageLink);
  await live(fresh.page);
  await fresh.page.waitForSelector('.summary');
  await fresh.page.waitForFunction((n) => document.querySelectorAll('[data-node]').length === n, sharerView.cards.length, { timeout: slow(20000) });
  const seen = await cluster(fresh.page);
  assert(same(seen, sharerView), `same cluster and clock:\n${JSON.stringify(seen)}\nvs\n${JSON.stringify(sharerView)}`);
  assert(await fresh.page.locator('.lesson-picker select').inputValue() === 'labels-taints', 'the same lesson');
  assert((await fresh.page.locator('.step-count').innerText()).startsWith('7 '), 'at the same step');
  assert(await fresh.page.locator('.speed[aria-pressed="true"]').innerText() === '60×', 'at the same speed');
  assert(await fresh.page.locator('.doc-tab[aria-selected="true"]').innerText().then((t) => t.includes('busybox')), 'with the same tab open');
  assert((await editorText(fresh.page)).startsWith(myEdit), 'with the sharer\'s edit');
  assert(await fresh.page.locator('.node.selected').count() === 1, 'the same node selected');
  assert(await fresh.page.locator('#tab-explain[aria-selected="true"]').count() === 1, 'and explained');
  assert(await fresh.page.locator('.linked-banner').isVisible(), 'the page says it is a shared scenario');
  await fresh.page.screenshot({ path: path.join(artifacts, 'share-02-opened-fresh.png') });
  await fresh.context.close();
});

await test('Share → Embed gives the article snippet for the current scenario, with a live preview', async () => {
  await mine.page.click('.share-btn');
  await mine.page.click('.tab-embed');
  const snippet = () => mine.page.locator('textarea.snippet').inputValue();
  // The worker draws the cluster for the snippet: its poster comes first, the YAML under it.
  await mine.page.waitForFunction(() => document.querySelector('textarea.snippet').value.startsWith('<svg '), null, { timeout: slow(20000) });
  let text = await snippet();
  assert(text.includes('\n<details class="karpenter-playground-manifests"><summary>Manifests (YAML)</summary>\n<pre class="karpenter-playground"'),
    `the drawing, then a <pre> for embed.js in a <details>: ${text.slice(text.indexOf('</svg>'), text.indexOf('</svg>') + 160)}`);
  assert(text.includes(`<script src="${url}embed.js" defer></script>`), 'loading embed.js from beside the page');
  assert(text.includes('# my own note, kept through everything'), 'with the manifests as they are now');
  await mine.page.click('.opt-autoplay input');
  text = await snippet();
  assert(/<pre class="karpenter-playground"[^>]* data-autoplay/.test(text), `autoplay becomes an attribute: ${text.slice(0, 120)}`);
  const preview = mine.page.locator('iframe.embed-preview');
  assert((await preview.getAttribute('src')).includes('?embed&autoplay'), 'the preview has the same options');
  const frame = await (await preview.elementHandle()).contentFrame();
  await frame.waitForSelector('.app.embed .summary', { timeout: slow(20000) });
  await frame.waitForSelector('[data-lane="pool/platform"]');
  await mine.page.click('.embed-forms .form-iframe');
  text = await snippet();
  assert(text.startsWith(`<iframe src="${url}index.html?embed&amp;autoplay`) && text.includes('#kpg1.') && !text.includes('allow='),
    `the plain iframe carries the scenario in its fragment and asks for no permissions: ${text.slice(0, 120)}`);
  await mine.page.screenshot({ path: path.join(artifacts, 'share-01b-embed-dialog.png') });
  await mine.page.keyboard.press('Escape');
});

await test('a link opened beside a saved session leaves that session alone, and Back returns to it', async () => {
  const tab = await mine.context.newPage();
  await tab.goto(pageLink);
  await live(tab);
  await tab.waitForSelector('.linked-banner');
  await tab.waitForFunction((n) => document.querySelectorAll('[data-node]').length === n, sharerView.cards.length, { timeout: slow(20000) });
  // Edit the linked workspace: that edit must not reach the learner's own session.
  await tab.click('.doc-tab:has-text("busybox")');
  await fillEditor(tab, '# edited in the shared copy\n' + await editorText(tab));
  await tab.waitForTimeout(300);
  await tab.reload();
  await live(tab);
  await tab.waitForSelector('.linked-banner');
  assert((await editorText(tab)).startsWith('# edited in the shared copy'),
    'a reload of the same link keeps the edits made to the shared copy');
  const own = await tab.evaluate(() => JSON.parse(localStorage.getItem('kpg.session')));
  const busybox = own.workspace.docs.map((d) => d.text).find((t) => t.includes('busybox'));
  assert(busybox.startsWith(myEdit) && !busybox.includes('shared copy'), 'the saved session is the learner\'s own');
  await tab.click('.back-to-mine');
  await tab.waitForSelector('.summary');
  await tab.waitForFunction(() => !location.hash && !document.querySelector('.linked-banner'));
  await tab.click('.doc-tab:has-text("busybox")');
  const back = await editorText(tab);
  assert(back.startsWith(myEdit) && !back.includes('shared copy'), 'Back opens the learner\'s own workspace');
  await tab.close();
});

await test('a link from `kpg share` opens the same cluster at the same instant as `kpg simulate` shows', async () => {
  const lab = path.resolve('tests/labs/seed002-limits.yaml');
  const link = execFileSync(kpg, ['share', lab, '--base', url, '--at', '3m']).toString().trim();
  const report = JSON.parse(execFileSync(kpg, ['simulate', lab, '--until', '3m', '--output', 'json']).toString());
  const expected = report.nodes.map((n) => `${n.name} ${n.instanceType}`).sort();
  const fresh = await profile();
  await fresh.page.goto(link);
  await live(fresh.page);
  await fresh.page.waitForFunction((n) => document.querySelectorAll('[data-node]').length === n, expected.length, { timeout: slow(20000) });
  const seen = await cluster(fresh.page);
  assert(seen.clock === 180000, `the clock opens at 3m: ${seen.clock}`);
  assert(same(seen.cards, expected), `the nodes kpg simulate reports at 3m:\n${seen.cards}\nvs\n${expected}`);
  assert(await fresh.page.locator('.lesson-picker select').inputValue() === 'blank', 'a scenario from a file opens as a free-form workspace');
  // Shared again from the page, it still opens the same cluster.
  await fresh.page.click('.share-btn');
  const again = await fresh.page.locator('.share-link').inputValue();
  const third = await profile();
  await third.page.goto(again);
  await live(third.page);
  await third.page.waitForFunction((n) => document.querySelectorAll('[data-node]').length === n, expected.length, { timeout: slow(20000) });
  assert(same(await cluster(third.page), seen), 'a link from the page and one from kpg share open the same cluster');
  await third.context.close();
  await fresh.context.close();
});

await test('Share → Report to Karpenter gives the block `kpg share --issue` prints for the same scenario and instant', async () => {
  const file = path.resolve('tests/issue/acme.yaml');
  const link = execFileSync(kpg, ['share', file, '--base', url, '--at', '5m']).toString().trim();
  const expected = execFileSync(kpg, ['share', file, '--issue', '--base', url, '--at', '5m']).toString();
  const fresh = await profile();
  await fresh.page.goto(link);
  await live(fresh.page);
  await fresh.page.waitForSelector('.summary');
  await fresh.page.click('.share-btn');
  await fresh.page.click('.tab-report');
  await fresh.page.waitForSelector('textarea.report-block', { timeout: slow(30000) });
  const block = await fresh.page.locator('textarea.report-block').inputValue();
  if (block !== expected) {
    fs.writeFileSync(path.join(artifacts, 'share-07-report-page.md'), block);
    fs.writeFileSync(path.join(artifacts, 'share-07-report-kpg.md'), expected);
    const at = [...block].findIndex((c, i) => c !== expected[i]);
    assert(false, `the page's block differs from kpg share --issue at ${at}:\n${block.slice(Math.max(0, at - 80), at + 80)}\nvs\n${expected.slice(Math.max(0, at - 80), at + 80)}`);
  }
  assert(block.includes('Karpenter **v1.10**') && block.includes(`](${url}#kpg1.`), 'the version, and a link on the page\'s own address');
  assert(!block.includes('123456789012') && !block.includes('acme-prod-eks'), 'nothing identifying');
  assert(/account IDs, ARNs/.test(await fresh.page.locator('.report-redacted').innerText()), 'the dialog says what is redacted');
  assert(await fresh.page.locator('.report-warning').count() === 0, 'the redacted scenario reproduces');
  await fresh.page.screenshot({ path: path.join(artifacts, 'share-07-report.png') });
  await fresh.page.click('.copy-report');
  await fresh.page.waitForFunction(() => document.querySelector('.share .copied').textContent.length > 0);
  // In Korean the dialog speaks Korean; the block stays English, for upstream.
  await fresh.page.keyboard.press('Escape');
  await fresh.page.click('.langs button[lang="ko"]');
  await fresh.page.click('.share-btn');
  await fresh.page.click('.tab-report');
  assert((await fresh.page.locator('.tab-report').innerText()) === 'Karpenter에 보고', 'the tab speaks Korean');
  await fresh.page.waitForSelector('textarea.report-block', { timeout: slow(30000) });
  assert(await fresh.page.locator('textarea.report-block').inputValue() === expected, 'the block stays the same English');
  await fresh.page.keyboard.press('Escape');
  await fresh.context.close();
});

await test('a shared link shows its cluster before the page\'s wasm arrives, then the live page takes over', async () => {
  const lab = path.resolve('tests/labs/seed002-limits.yaml');
  const link = execFileSync(kpg, ['share', lab, '--base', url, '--at', '3m']).toString().trim();
  const report = JSON.parse(execFileSync(kpg, ['simulate', lab, '--until', '3m', '--output', 'json']).toString());
  const fresh = await profile();
  // The page's wasm is held back: whatever shows meanwhile comes from the link alone.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await fresh.context.route(/kpg-web-[0-9a-f]+_bg\.wasm$/, async (route) => { await held; await route.continue(); });
  await fresh.page.goto(link);
  const poster = fresh.page.locator('#kpg-first-frame img');
  await poster.waitFor({ timeout: slow(20000) });
  const alt = await poster.getAttribute('alt');
  const pending = report.pods.filter((p) => !p.node).length;
  assert(alt.includes(`${report.nodes.length} nodes`) && alt.includes(`${pending} pending`),
    `the poster's text alternative gives the figures: ${alt}`);
  const svg = await fresh.page.evaluate(async () => (await fetch(document.querySelector('#kpg-first-frame img').src)).text());
  for (const n of report.nodes) {
    assert(svg.includes(`>${n.instanceType}<`) && svg.includes(n.zone), `the poster draws ${n.name}: ${n.instanceType} in ${n.zone}`);
  }
  assert(await fresh.page.evaluate(() => performance.getEntriesByName('kpg-first-render').length) === 1,
    'the first render is marked while the page\'s wasm is still held');
  assert(await fresh.page.evaluate(() => performance.getEntriesByName('kpg-interactive').length) === 0,
    'and the live page has not started');
  await fresh.page.screenshot({ path: path.join(artifacts, 'share-07-first-frame.png') });
  release();
  await live(fresh.page);
  await fresh.page.waitForFunction((n) => document.querySelectorAll('[data-node]').length === n, report.nodes.length, { timeout: slow(20000) });
  assert(await fresh.page.locator('#kpg-first-frame').count() === 0, 'the live cluster replaced the poster');
  await fresh.context.close();
});

await test('on a phone, a shared link\'s first frame is drawn for its width and stays the largest paint', async () => {
  // The bench's link (bench.mjs, coldLoadOtherStartMobileProfile): a drawing 720 wide, shrunk
  // to the phone's width, paints less than the lesson text the live page shows after it.
  const lab = path.resolve('tests/labs/seed000-hello-world.yaml');
  const link = execFileSync(kpg, ['share', lab, '--base', url]).toString().trim();
  const fresh = await profile({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await fresh.page.addInitScript(() => {
    window.__lcp = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lcp.push(e.startTime); })
      .observe({ type: 'largest-contentful-paint', buffered: true });
  });
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await fresh.context.route(/kpg-web-[0-9a-f]+_bg\.wasm$/, async (route) => { await held; await route.continue(); });
  await fresh.page.goto(link);
  const poster = fresh.page.locator('#kpg-first-frame img');
  await poster.waitFor({ timeout: slow(20000) });
  await fresh.page.waitForFunction(() => document.querySelector('#kpg-first-frame img').complete);
  const svg = await fresh.page.evaluate(async () => (await fetch(document.querySelector('#kpg-first-frame img').src)).text());
  assert(svg.includes('viewBox="0 0 384 '), `drawn for a phone: ${svg.slice(0, 200)}`);
  const box = await poster.boundingBox();
  assert(box.width >= 340, `shown near its own size, its text readable: ${box.width} px wide`);
  await fresh.page.screenshot({ path: path.join(artifacts, 'share-08-phone-first-frame.png') });
  const releasedAt = await fresh.page.evaluate(() => performance.now());
  release();
  await live(fresh.page);
  await fresh.page.waitForTimeout(500);
  const lcp = await fresh.page.evaluate(() => window.__lcp);
  assert(lcp.length > 0 && lcp.every((t) => t < releasedAt),
    `the Largest Contentful Paint is the first frame, not the live page after it: ${lcp} (released at ${releasedAt})`);
  await fresh.context.close();
});

await test('an unhealthy node counts down to node repair on its card, and is gone once repaired', async () => {
  const file = path.resolve('tests/browser/node-repair.yaml');
  const link = execFileSync(kpg, ['share', file, '--base', url, '--at', '20m']).toString().trim();
  const fresh = await profile();
  await fresh.page.goto(link);
  await live(fresh.page);
  await settled(fresh.page);
  // Not ready since 5m: node repair deletes it at 35m, 15 minutes from the clock.
  const fate = fresh.page.locator('.node .fate.unhealthy');
  await fate.waitFor({ timeout: slow(20000) });
  const text = await fate.textContent();
  assert(text.includes('Ready=False') && text.includes('node repair in 15m'), `the card counts down: ${text}`);
  const sick = await fresh.page.locator('.node:has(.fate.unhealthy)').getAttribute('data-node');
  const state = await fresh.page.locator(`[data-node="${sick}"] .state-line`).textContent();
  assert(state.startsWith('NotReady'), `the card says the node is not ready: ${state}`);
  await fresh.page.screenshot({ path: path.join(artifacts, 'share-06-node-repair.png') });
  await seekTo(fresh.page, 40 * 60000);
  assert(await fresh.page.locator(`[data-node="${sick}"]`).count() === 0, `${sick} is repaired away by 40m`);
  assert(await fresh.page.locator('.node .fate.unhealthy').count() === 0, 'no unhealthy node is left');
  await fresh.context.close();
});

await test('a damaged link gives a notice and the learner\'s own workspace, never a blank page', async () => {
  const tab = await mine.context.newPage();
  const cut = pageLink.slice(0, pageLink.length - 40);
  await tab.goto(cut);
  await live(tab);
  await tab.waitForSelector('.notice');
  const notice = await tab.locator('.notice').innerText();
  assert(/could not be opened/.test(notice) && /own workspace/.test(notice), `the notice says what happened: ${notice}`);
  assert(await tab.locator('.linked-banner').count() === 0, 'not a linked workspace');
  await tab.click('.doc-tab:has-text("busybox")');
  assert((await editorText(tab)).startsWith(myEdit), 'the learner\'s own workspace');
  await tab.screenshot({ path: path.join(artifacts, 'share-03-damaged.png') });
  await tab.close();
  // A link from a later version of the page says so.
  const newer = await mine.context.newPage();
  await newer.goto(url + '#kpg9.AAAA');
  await live(newer);
  await newer.waitForSelector('.notice');
  assert(/newer version/.test(await newer.locator('.notice').innerText()), 'a newer link is named as such');
  await newer.close();
  // Some other anchor is not a link at all.
  const anchor = await mine.context.newPage();
  await anchor.goto(url + '#intro');
  await live(anchor);
  await anchor.waitForSelector('.summary');
  assert(await anchor.locator('.notice').count() === 0, 'an ordinary anchor raises no notice');
  await anchor.close();
});

await test('hostile manifests in a link render as text', async () => {
  const author = await profile();
  const tab = author.page;
  await tab.goto(url);
  await live(tab);
  await tab.waitForSelector('.summary');
  await tab.selectOption('.lesson-picker select', 'blank');
  const hostile = '# <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>\n' +
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels:\n    app: "<script>window.__pwned=4</script>"\n  annotations:\n    note: "<img src=x onerror=window.__pwned=3>"\n' +
    'spec:\n  containers:\n  - name: "<b>x</b>"\n    image: nginx\n';
  await tab.click('.add-btn');
  await tab.click('.menu button >> text=Pod');
  await fillEditor(tab, hostile);
  await tab.click('.share-btn');
  const link = await tab.locator('.share-link').inputValue();
  const fresh = await profile();
  await fresh.page.goto(link);
  await live(fresh.page);
  await fresh.page.waitForSelector('.summary');
  await fresh.page.click('.doc-tab:has-text("web")');
  assert((await editorText(fresh.page)) === hostile, 'the text arrives as typed');
  await fresh.page.waitForTimeout(500);
  assert(await fresh.page.evaluate(() => window.__pwned === undefined), 'nothing in it ran');
  await fresh.page.waitForSelector('.problem.error');
  const problems = await fresh.page.locator('.problem-list').innerText();
  assert(problems.includes('<script>window.__pwned=4</script>'), `the reader's findings quote it as text: ${problems.slice(0, 300)}`);
  assert(await fresh.page.locator('.app img, .app script, .app b').count() === 0, 'no element came from the manifests');
  await fresh.context.close();
  await author.context.close();
});

await test('a link carrying a hostile lesson shows its text as text; one whose lesson does not read opens its manifests with the located problem', async () => {
  // Made by hand, as an attacker would: the link format is public (kpg_share).
  const pack = (shared) => 'kpg1.' + zlib.deflateRawSync(Buffer.from(JSON.stringify(shared))).toString('base64url');
  const docs = ['apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: web, image: nginx}]\n'];
  const lesson = `id: hostile-lesson
title: "<img src=x onerror=window.__pwned=1> Hostile"
lab:
  inline: |
    apiVersion: v1
    kind: Pod
    metadata: {name: web}
    spec:
      containers: [{name: web, image: nginx}]
steps:
  - id: one
    title: One
    text: |-
      **Bold** <script>window.__pwned=2</script> <img src=x onerror="window.__pwned=3">
      [run me](javascript:window.__pwned=4), [a file](notes.html), [the next step](#two).
  - id: two
    title: Two
    text: Done.
`;
  const hostile = pack({ docs, lesson: 'hostile-lesson', lessonFiles: { file: 'lesson.yaml', text: lesson, base: 'javascript:window.__pwned=5//x/' } });
  const fresh = await profile();
  await fresh.page.goto(url + '#' + hostile);
  await live(fresh.page);
  await fresh.page.waitForFunction(() => document.querySelector('.lesson-picker select')?.value === 'hostile-lesson', null, { timeout: slow(20000) });
  const body = fresh.page.locator('#lesson-body');
  const text = await body.innerText();
  assert(text.includes('<script>window.__pwned=2</script>') && text.includes('<img src=x onerror='), `the markup is text: ${text}`);
  assert(await body.locator('strong').innerText() === 'Bold', 'its Markdown is elements');
  const links = await body.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert(links.length === 1 && links[0] === '#two', `only the step link is a link (javascript: and a file against a javascript: base are text): ${links}`);
  assert(await fresh.page.locator('.lesson img, .lesson script').count() === 0, 'no element came from the lesson');
  const eyebrow = await fresh.page.locator('.lesson .eyebrow').textContent();
  assert(eyebrow.includes('<img src=x onerror=window.__pwned=1> Hostile'), `its title is text: ${eyebrow}`);
  await body.locator('a').focus();
  await fresh.page.keyboard.press('Enter');
  await fresh.page.waitForFunction(() => document.querySelector('#lesson-title').textContent === 'Two');
  assert(await fresh.page.evaluate(() => window.__pwned) === undefined, 'nothing in it ran');
  await fresh.context.close();

  const broken = pack({ docs, lesson: 'broken', lessonFiles: { file: 'lesson.yaml', text: 'id: broken\ntitle: [unclosed\n' } });
  const other = await profile();
  await other.page.goto(url + '#' + broken);
  await live(other.page);
  await other.page.waitForSelector('.notice', { timeout: slow(20000) });
  const notice = await other.page.locator('.notice').innerText();
  assert(/lesson\.yaml:\d+:\d+: error\[lesson-/.test(notice), `the notice locates the problem: ${notice}`);
  assert(await other.page.locator('.doc-tab:has-text("web")').count() === 1, 'the link\'s manifests are open');
  await other.context.close();
});

await test('the workspace downloads as one multi-document YAML file and opens again, with Undo', async () => {
  const tab = await mine.context.newPage();
  await tab.goto(url);
  await live(tab);
  await tab.waitForSelector('.summary');
  const tabsBefore = await tab.locator('.doc-tab').count();
  const [download] = await Promise.all([tab.waitForEvent('download'), tab.click('.doc-actions .download')]);
  assert(download.suggestedFilename() === 'karpenter-playground.yaml', download.suggestedFilename());
  const file = path.join(os.tmpdir(), `kpg-download-${process.pid}.yaml`);
  await download.saveAs(file);
  const text = fs.readFileSync(file, 'utf8');
  assert(text.split(/^---$/m).length === tabsBefore && text.includes(myEdit), `every tab, in order, with the edit (${tabsBefore} tabs)`);
  // kpg reads the download like the page did: no findings (it exits non-zero on errors).
  const findings = JSON.parse(execFileSync(kpg, ['validate', file, '--output', 'json']).toString());
  assert(findings.length === 0, `kpg reads the downloaded file cleanly: ${JSON.stringify(findings).slice(0, 200)}`);

  // Open another file: its documents replace the tabs; Undo brings the old ones back.
  const other = fs.readFileSync('tests/labs/seed000-hello-world.yaml', 'utf8');
  await tab.setInputFiles('.open-file input[type=file]', { name: 'hello.yaml', mimeType: 'application/yaml', buffer: Buffer.from(other) });
  await tab.waitForSelector('.notice .undo');
  assert((await tab.locator('.notice').innerText()).includes('hello.yaml'), 'the notice names the file');
  assert(await tab.locator('.doc-tab').count() === 3, 'the file\'s three documents are the tabs');
  await tab.waitForSelector('[data-lane="pool/hello-world"]');
  await tab.click('.notice .undo');
  await tab.waitForFunction((n) => document.querySelectorAll('.doc-tab').length === n, tabsBefore);
  await tab.click('.doc-tab:has-text("busybox")');
  assert((await editorText(tab)).startsWith(myEdit), 'Undo restores the learner\'s tabs');

  // A dropped file opens the same way, and a broken one gets the reader's diagnostics.
  await tab.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['apiVersion: v1\nkind: Pod\nmetadata:\n  name: dropped\nspec:\n  containers: [\n'], 'broken.yaml', { type: 'application/yaml' }));
    const pane = document.querySelector('.pane.manifests');
    pane.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    pane.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await tab.waitForSelector('.problem.error');
  assert(/line \d+/.test(await tab.locator('.problem.error .where').first().innerText()), 'a dropped file is read like typing, with lines');
  await tab.screenshot({ path: path.join(artifacts, 'share-04-dropped.png') });
  await tab.click('.notice .undo');
  fs.unlinkSync(file);
  await tab.close();
});

await test('a link too long for chat tools says so and offers the .yaml instead', async () => {
  const author = await profile();
  const tab = author.page;
  await tab.goto(url);
  await live(tab);
  await tab.waitForSelector('.summary');
  await tab.selectOption('.lesson-picker select', 'blank');
  // Unique text compresses poorly: 30 KB of it makes a link well over 8 KB.
  let noise = '';
  for (let i = 0; i < 1500; i++) noise += `# ${(i * 7919 % 100003).toString(36)}-${(i * 104729 % 999983).toString(16)}\n`;
  await fillEditor(tab, noise + await editorText(tab));
  await tab.click('.share-btn');
  const chars = Number(await tab.locator('.share-length').getAttribute('data-chars'));
  assert(chars > 8192, `the link is long: ${chars}`);
  assert(await tab.locator('.too-long').isVisible(), 'the dialog warns');
  assert((await tab.locator('.download-yaml').getAttribute('class')).includes('primary'), 'and makes the download the main action');
  await tab.screenshot({ path: path.join(artifacts, 'share-05-long.png') });
  await author.context.close();
});

/** The labs' own posters: what kpg share --embed prints, what the page's dialog gives. */
await test('Share → Embed gives, poster included, the snippet `kpg share --embed` prints for the same scenario and instant', async () => {
  const lab = path.resolve('tests/labs/seed002-limits.yaml');
  const link = execFileSync(kpg, ['share', lab, '--base', url, '--at', '3m']).toString().trim();
  const fresh = await profile();
  await fresh.page.goto(link);
  await live(fresh.page);
  await fresh.page.waitForSelector('[data-node]', { timeout: slow(20000) });
  await fresh.page.click('.share-btn');
  await fresh.page.click('.tab-embed');
  const drawn = () => fresh.page.waitForFunction(() => document.querySelector('textarea.snippet').value.startsWith('<svg '), null, { timeout: slow(20000) });
  await drawn();
  const snippet = () => fresh.page.locator('textarea.snippet').inputValue();
  const cli = (...more) => execFileSync(kpg, ['share', lab, '--base', url, '--embed', ...more]).toString();
  let text = await snippet();
  assert(text === cli('--at', '3m'), `the same snippet as kpg share --embed --at 3m:\n${text.slice(0, 300)}\nvs\n${cli('--at', '3m').slice(0, 300)}`);
  // The dialog's choices are kpg share's flags: theme, when it becomes live, the instant.
  await fresh.page.selectOption('.opt-theme select', 'dark');
  await fresh.page.selectOption('.opt-live select', 'click');
  text = await snippet();
  assert(text === cli('--at', '3m', '--theme', 'dark', '--live', 'click'), `dark, live on click: ${text.slice(0, 200)}`);
  await fresh.page.click('.opt-at input');
  await fresh.page.waitForFunction(() => !document.querySelector('textarea.snippet').value.includes('data-at='));
  await drawn();
  text = await snippet();
  assert(text === cli('--theme', 'dark', '--live', 'click'), `from the start, drawn at 0s: ${text.slice(0, 200)}`);
  await fresh.page.screenshot({ path: path.join(artifacts, 'share-06-embed-poster.png') });
  await fresh.context.close();
});

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes) => {
  assert(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'a PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
};

await test('Share → Link offers the link preview page and its image as downloads', async () => {
  const lab = path.resolve('tests/labs/seed002-limits.yaml');
  const link = execFileSync(kpg, ['share', lab, '--base', url, '--at', '3m']).toString().trim();
  const fresh = await profile();
  await fresh.page.goto(link);
  await live(fresh.page);
  await fresh.page.waitForSelector('[data-node]', { timeout: slow(20000) });
  await fresh.page.click('.share-btn');
  const pageButton = fresh.page.locator('.download-preview-page');
  await fresh.page.waitForFunction(() => !document.querySelector('.download-preview-image').disabled, null, { timeout: slow(20000) });
  assert(await pageButton.isDisabled(), 'the page needs the address it will be published at');
  await fresh.page.locator('.preview-page-url input').focus();
  const where = 'https://blog.example/previews/limits/';
  await fresh.page.keyboard.type(where);
  assert(!(await pageButton.isDisabled()), 'an address enables it');
  const [html] = await Promise.all([fresh.page.waitForEvent('download'), pageButton.click()]);
  assert(html.suggestedFilename() === 'index.html', html.suggestedFilename());
  const htmlFile = path.join(os.tmpdir(), `kpg-preview-${process.pid}.html`);
  await html.saveAs(htmlFile);
  const fromPage = fs.readFileSync(htmlFile, 'utf8');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpg-page-'));
  execFileSync(kpg, ['share', lab, '--base', url, '--at', '3m', '--page', dir, '--page-url', where], { stdio: 'pipe' });
  // The page's link carries what the page adds (its language, the open tab): the same page
  // kpg share --page writes, around the dialog's own link.
  const pageLink = await fresh.page.locator('.share-link').inputValue();
  const escapeAttr = (t) => t.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  assert(fromPage.includes(`<a class="open" href="${escapeAttr(pageLink)}">`), 'the page opens the dialog\'s link');
  const fromKpg = fs.readFileSync(path.join(dir, 'index.html'), 'utf8')
    .replace(/<a class="open" href="[^"]*">/, `<a class="open" href="${escapeAttr(pageLink)}">`);
  assert(fromPage === fromKpg, `the same page kpg share --page writes:\n${fromPage.slice(0, 400)}\nvs\n${fromKpg.slice(0, 400)}`);
  const [png] = await Promise.all([fresh.page.waitForEvent('download'), fresh.page.click('.download-preview-image')]);
  assert(png.suggestedFilename() === 'preview.png', png.suggestedFilename());
  const pngFile = path.join(os.tmpdir(), `kpg-preview-${process.pid}.png`);
  await png.saveAs(pngFile);
  const size = pngSize(fs.readFileSync(pngFile));
  assert(size.join('x') === '1200x630', `the cards' size: ${size}`);
  fs.copyFileSync(pngFile, path.join(artifacts, 'share-07-preview-from-the-page.png'));
  fs.copyFileSync(path.join(dir, 'preview.png'), path.join(artifacts, 'share-07-preview-from-kpg.png'));
  fs.rmSync(dir, { recursive: true, force: true });
  await fresh.context.close();
});

await test('a crawler fetching `kpg share --page` over HTTP, with no JavaScript, finds the title, the figures and a 1200×630 PNG', async () => {
  const lab = path.resolve('tests/labs/seed002-limits.yaml');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpg-page-'));
  const host = await serve(dir, '/previews/limits/');
  execFileSync(kpg, ['share', lab, '--base', url, '--at', '5m', '--page', dir, '--page-url', host.url], { stdio: 'pipe' });
  const res = await fetch(host.url);
  assert(res.ok && /^text\/html/.test(res.headers.get('content-type')), `the page: ${res.status}`);
  const html = await res.text();
  const meta = (key) => {
    const m = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html);
    return m && m[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  };
  const report = JSON.parse(execFileSync(kpg, ['simulate', lab, '--until', '5m', '--output', 'json']).toString());
  const pending = report.pods.filter((p) => p.phase === 'Pending').length;
  assert(/<title>cluster mydev · Karpenter Playground<\/title>/.test(html) && meta('og:title') === 'cluster mydev · Karpenter Playground', `the title: ${meta('og:title')}`);
  const description = meta('og:description');
  assert(description === meta('description') && description === meta('twitter:description')
    && description.startsWith(`${report.nodes.length} nodes · $${report.costPerHour.toFixed(4)}/h · `) && description.endsWith(` · ${pending} pending`),
    `the figures kpg simulate reports at 5m: ${description} (${report.nodes.length} nodes, $${report.costPerHour}/h, ${pending} pending)`);
  assert(meta('twitter:card') === 'summary_large_image', meta('twitter:card'));
  const image = meta('og:image');
  assert(image === meta('twitter:image') && image === host.url + 'preview.png', `og:image is absolute: ${image}`);
  const img = await fetch(image);
  assert(img.ok && img.headers.get('content-type') === 'image/png', `og:image resolves to a PNG: ${img.status} ${img.headers.get('content-type')}`);
  const size = pngSize(Buffer.from(await img.arrayBuffer()));
  assert(`${size[0]}x${size[1]}` === `${meta('og:image:width')}x${meta('og:image:height')}` && size.join('x') === '1200x630', `the stated size: ${size}`);
  const open = /<a class="open" href="([^"]*)">/.exec(html);
  assert(open && open[1].startsWith(url + '#kpg1.'), `a link to the playground: ${open && open[1].slice(0, 60)}`);
  host.server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

await test('no errors in the console', async () => {
  assert(errors.length === 0, errors.join('\n'));
});

await browser.close();
server.close();
finish();
