// axe-core on the page as learners use it: at 1280x800 with a pod explained, the Share
// dialog's report, on a phone's Events & Explain view, in Korean, inside an embed on the
// example article, and with the cluster shown as a table. Zero critical or serious
// violations, kept at zero (the list of what axe found is printed on failure). Then what else
// a learner who does not see the page, or does not use a mouse, or is unsettled by motion,
// needs: the live region that tells Karpenter's decisions (and batches them at 60x), the
// keyboard path through the main controls with visible focus, and reduced motion.
//
//   node tests/browser/a11y.mjs [dist] [artifacts]
import fs from 'node:fs';
import path from 'node:path';
import { serve } from './server.mjs';
import { assert, axeViolations, finish, firstEmbedFrame, launch, live, seekTo, settled, slow, stepUntil, test } from './harness.mjs';

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

/** The Consolidation step of Labels vs taints (tests/labs/seed002-consolidation.yaml): four
 *  t3.small spot NodeClaims launched at 0:02-0:03 for a pod each, then consolidated one a
 *  minute from 4:15. */
async function consolidationLab(page) {
  await page.goto(url);
  await live(page);
  await page.selectOption('.lesson-picker select', 'labels-taints');
  for (let i = 0; i < 4; i++) await page.click('.lesson-nav button.primary');
  await page.waitForFunction(() => /^5 /.test(document.querySelector('.lesson .step-count')?.textContent || ''));
  await settled(page);
}

/** Every announcement the live region makes from now on, with the page's time. */
async function recordNarration(page) {
  await page.evaluate(() => {
    const region = document.querySelector('.narration');
    window.kpgSaid = [];
    new MutationObserver(() => {
      const text = region.textContent.trim();
      if (text) window.kpgSaid.push({ at: performance.now(), text });
    }).observe(region, { childList: true, characterData: true, subtree: true });
  });
}

/** Waits until the live region says something matching `re`; returns what it says. */
async function narrated(page, re) {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('.narration')?.textContent || ''),
    re.source, { timeout: slow(20000) });
  return page.locator('.narration').textContent();
}

await test('the cluster as a table (en, ko): no critical or serious violation, a row per node', async () => {
  for (const lang of ['en', 'ko']) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: lang === 'ko' ? 'ko-KR' : 'en-US' });
    const page = await ctx.newPage();
    await consolidationLab(page);
    await seekTo(page, 60000);
    const cards = await page.locator('.lanes .node').count();
    await page.click('.cluster-as-table');
    await page.waitForSelector('.cluster-table');
    assert(await page.locator('.lanes').count() === 0, 'the table replaces the lanes');
    const rows = await page.locator('.cluster-table tbody tr').count();
    assert(rows === cards && rows === 6, `a row per node card: ${rows} rows, ${cards} cards`);
    const headers = await page.locator('.cluster-table thead th').allTextContents();
    assert(headers.length === 10, `ten columns: ${headers}`);
    await page.screenshot({ path: path.join(artifacts, `a11y-cluster-table-${lang}.png`) });
    none(await axeViolations(page), `the cluster as a table, ${lang}`);
    await ctx.close();
  }
});

await test('the live region tells a launch and a consolidation as the clock steps, and a seek in one sentence', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await ctx.newPage();
  await consolidationLab(page);
  const region = page.locator('.narration');
  assert(await region.getAttribute('aria-live') === 'polite' && await region.getAttribute('role') === 'status',
    'a polite status region');
  // 0:02, past the NodeClaims' creation at 0:01 (a seek to the very next instant would be
  // a step, told as one).
  await seekTo(page, 2000);
  let said = await narrated(page, /^Clock at 0:02:/);
  // The first NodeClaim launches at 0:02.121: one step.
  await page.click('.transport button.next-instant');
  said = await narrated(page, /launched/);
  assert(said === 'Karpenter launched a t3.small (spot) in ap-northeast-2b for 1 pending pod.', `after the launch: ${said}`);
  // A seek past the other launches and pods bound reads none of them: where it landed.
  await seekTo(page, 254000);
  said = await narrated(page, /^Clock at 4:14:/);
  assert(said === 'Clock at 4:14: 6 nodes, 8 pods running, 0 pending, $0.2666/h.', `after the seek: ${said}`);
  await stepUntil(page, () => Number(document.querySelector('output.clock').dataset.ms) >= 255000);
  said = await narrated(page, /consolidated/);
  assert(said === 'Karpenter consolidated node platform-b44dr (t3.small), saving $0.0078/h.', `after the consolidation: ${said}`);
  await ctx.close();
});

await test('at 60x the live region batches: a burst in one sentence, announcements apart', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await ctx.newPage();
  await consolidationLab(page);
  await page.click('.speeds button:has-text("60×")');
  await recordNarration(page);
  const t0 = await page.evaluate(() => performance.now());
  await page.click('.transport .play');
  // Played until the last consolidation (7:15) is behind the clock, however long that takes.
  await page.waitForFunction(() => Number(document.querySelector('output.clock').dataset.ms) >= 450000, null,
    { timeout: slow(120000) });
  await page.click('.transport .play');
  await page.waitForTimeout(3000);
  const said = (await page.evaluate(() => window.kpgSaid)).filter((s) => s.at > t0);
  const decisions = said.filter((s) => !s.text.startsWith('Clock at'));
  const lines = said.map((s) => `${Math.round(s.at - t0)} ms: ${s.text}`).join('\n       ');
  console.log(`     played at 60x, ${decisions.length} announcements of 8 decisions:\n       ${lines}`);
  assert(decisions.length > 0 && decisions[0].text === 'Karpenter: launched 4 nodes (t3.small) for 4 pending pods.',
    `the four launches, told as one:\n       ${lines}`);
  assert(said.some((s) => /consolidated/.test(s.text)), `the consolidations told:\n       ${lines}`);
  // Eight decisions (four launches, four consolidations), fewer announcements, each given
  // the time to be heard.
  assert(decisions.length < 8, `fewer announcements than decisions:\n       ${lines}`);
  for (let i = 1; i < decisions.length; i++) {
    const gap = decisions[i].at - decisions[i - 1].at;
    assert(gap >= 2400, `${Math.round(gap)} ms between two announcements:\n       ${lines}`);
  }
  await ctx.close();
});

/** What the focused element shows of its focus: the page's outline or a box shadow. */
function focusShown(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { what: 'body', shown: false };
    const cs = getComputedStyle(el);
    // The page's own ring (2 px or more, not the browser's thin default `auto` one, which
    // can vanish against the page's colours), or a shadow standing for it.
    const outline = !['none', 'auto'].includes(cs.outlineStyle) && parseFloat(cs.outlineWidth) >= 2;
    const what = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}`;
    return { what, shown: outline || cs.boxShadow !== 'none' };
  });
}

/** Presses Tab (or Shift+Tab) until the focus is on `selector`; every stop on the way must
 *  show its focus (what did not is added to `unseen`). */
async function tabTo(page, selector, unseen, { back = false, max = 120 } = {}) {
  let before = 'where it was';
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focusShown(page);
    if (!f.shown) unseen.add(`${f.what} (after ${before}, on the way to ${selector})`);
    before = f.what;
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return f;
  }
  throw new Error(`${max} presses of ${back ? 'Shift+' : ''}Tab never reached ${selector}`);
}

await test('the keyboard reaches and uses the main controls, and every stop shows its focus', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await ctx.newPage();
  await consolidationLab(page);
  await page.waitForSelector('.editor.cm-ready', { timeout: slow(20000) }).catch(() => {});
  await seekTo(page, 60000);
  await page.evaluate(() => document.activeElement?.blur());
  const unseen = new Set();
  const playing = () => page.getAttribute('.transport .play', 'aria-pressed');
  const clockMs = () => page.getAttribute('output.clock', 'data-ms');

  // The Share dialog: Enter opens it with the focus inside, Tab stays in it, Escape closes
  // it and gives the focus back.
  await tabTo(page, '.share-btn', unseen);
  await page.keyboard.press('Enter');
  await page.waitForSelector('[role="dialog"]');
  await page.waitForFunction(() => document.activeElement?.closest('[role="dialog"]'));
  let f = await focusShown(page);
  assert(f.shown, `the dialog's first control shows its focus (${f.what})`);
  await page.keyboard.press('Tab');
  f = await focusShown(page);
  assert(f.shown && await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]')),
    `Tab moves within the dialog (${f.what})`);
  await page.keyboard.press('Escape');
  await page.waitForSelector('[role="dialog"]', { state: 'detached' });
  assert(await page.evaluate(() => document.activeElement?.matches('.share-btn')), 'Escape gives the focus back to Share');

  // Play and pause with Space, then Enter.
  await tabTo(page, '.transport .play', unseen, { back: true });
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('.transport .play').getAttribute('aria-pressed') === 'true');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.transport .play').getAttribute('aria-pressed') === 'false');
  assert(await playing() === 'false', 'paused again');

  // Seek: the clock, Enter, a time typed, Enter.
  await tabTo(page, '.transport .clock-go', unseen);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.transport .clock-input:focus');
  f = await focusShown(page);
  assert(f.shown, `the clock's field shows its focus (${f.what})`);
  await page.keyboard.type('4:10');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('output.clock')?.dataset.ms === '250000');
  await settled(page);
  await page.waitForFunction(() => document.activeElement?.matches('.transport .clock-go'));
  // Back to Step with Shift+Tab, Enter: the next instant.
  await tabTo(page, '.transport .next-instant', unseen, { back: true });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('output.clock')?.dataset.ms !== '250000');
  await settled(page);
  const stepped = await clockMs();

  // A node card: Enter explains it; another, Space.
  const first = await tabTo(page, '.lanes .node', unseen);
  const firstName = await page.evaluate(() => document.activeElement.dataset.node);
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelector('.explanation[data-kind="node"]')?.textContent.includes(n), firstName);
  assert(first.shown, 'the node card shows its focus');
  await tabTo(page, `.lanes .node:not([data-node="${firstName}"])`, unseen);
  const second = await page.evaluate(() => document.activeElement.dataset.node);
  await page.keyboard.press('Space');
  await page.waitForFunction((n) => document.querySelector('.explanation[data-kind="node"]')?.textContent.includes(n), second);
  assert(await playing() === 'false', 'Space on a node card explains it and does not play');
  assert(await clockMs() === stepped, 'nor moves the clock');

  // The cluster as a table, by Space; its first node's name explains that node.
  await tabTo(page, '.cluster-as-table', unseen, { back: true });
  await page.keyboard.press('Space');
  await page.waitForSelector('.cluster-table');
  await tabTo(page, '.cluster-table button', unseen);
  const rowNode = await page.evaluate(() => document.activeElement.textContent);
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelector('.explanation[data-kind="node"]')?.textContent.includes(n), rowNode);

  // The cost chart, a slider: Home, then → to the next instant something changed, Enter.
  await tabTo(page, '.ct-plot', unseen);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await page.waitForFunction((s) => document.querySelector('output.clock')?.dataset.ms !== s, stepped);
  await settled(page);

  // The bottom tabs.
  await tabTo(page, '#tab-events', unseen);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#tab-events').getAttribute('aria-selected') === 'true');
  await page.screenshot({ path: path.join(artifacts, 'a11y-keyboard.png') });
  assert(unseen.size === 0, `focus not shown on: ${[...unseen].join(', ')}`);
  await ctx.close();
});

/** The animation and transition durations of every element `selector` finds (and its
 *  ::before), as seconds. */
function durations(page, selector) {
  return page.evaluate((selector) => [...document.querySelectorAll(selector)].flatMap((el) => [null, '::before']
    .map((pseudo) => getComputedStyle(el, pseudo))
    .flatMap((cs) => `${cs.animationDuration},${cs.transitionDuration}`.split(',').map(parseFloat))), selector);
}

const ANIMATED = ['.lanes .node', '.lanes .node.launching .state-line', '.bar .fill', '.tray .pod'];

for (const motion of ['no-preference', 'reduce']) {
  await test(`prefers-reduced-motion: ${motion}: ${motion === 'reduce' ? 'nothing moves' : 'the cluster moves'}`, async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', reducedMotion: motion });
    const page = await ctx.newPage();
    await consolidationLab(page);
    // Four nodes launching and their four pods pending, nominated.
    await seekTo(page, 5000);
    let moving = 0;
    for (const sel of ANIMATED) {
      const d = await durations(page, sel);
      assert(d.length > 0, `${sel} is on the page`);
      moving += d.filter((x) => x > 0).length;
    }
    // The pods bind (0:12): they would slide from the tray to their nodes.
    await stepUntil(page, () => document.querySelectorAll('.tray .pod').length === 0);
    const running = await page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length);
    if (motion === 'reduce') {
      assert(moving === 0, `${moving} animation or transition durations above 0 with reduced motion`);
      assert(running === 0, `${running} animations running with reduced motion`);
    } else {
      assert(moving > 0, 'animations and transitions without the preference');
    }
    await ctx.close();
  });
}

await browser.close();
server.close();
finish();
