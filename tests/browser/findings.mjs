// What a learner saw go wrong on a walk through the page (issue 30), each checked the way the
// learner met it: Explain on a phone, Problems under the editor, a multi-document paste, the
// comparison on a phone, an exercise in the lesson pane, saving labels in the cost chart, the
// phone's views and their scroll, the cluster view's words, and an embed's clock for its host.
//
//   node tests/browser/findings.mjs [dist] [artifacts]
import fs from 'node:fs';
import path from 'node:path';
import { serve } from './server.mjs';
import { assert, editorText, finish, focusEditor, launch, live, seekTo, slow, stepUntil, test } from './harness.mjs';

const dist = path.resolve(process.argv[2] || 'dist');
const artifacts = path.resolve(process.argv[3] || 'target/browser-artifacts');
fs.mkdirSync(artifacts, { recursive: true });

const { server, url } = await serve(dist, '/findings/');
const browser = await launch();
const errors = [];

async function open(viewport, locale = 'en-US', extra = {}) {
  const ctx = await browser.newContext({ viewport, locale, ...extra });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await live(page);
  return page;
}
const desktop = (locale) => open({ width: 1280, height: 800 }, locale);
const phone = (locale) => open({ width: 390, height: 844 }, locale, { isMobile: true, hasTouch: true });

async function openStep(page, lesson, step) {
  await page.selectOption('.lesson-picker select', lesson);
  for (let i = 1; i < step; i++) await page.click('.lesson-nav button.primary');
}

/** Whether the whole of `selector`'s element can be seen: inside the window and inside every
 * scrolling box around it, and on top where it is checked (nothing covers its corners). */
function wholeInSight(page, selector) {
  return page.evaluate((selector) => {
    const el = document.querySelector(selector);
    if (!el) return { ok: false, why: 'absent' };
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return { ok: false, why: 'not shown' };
    let box = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(s.overflowY + s.overflowX)) {
        const q = p.getBoundingClientRect();
        box = { top: Math.max(box.top, q.top), left: Math.max(box.left, q.left),
          bottom: Math.min(box.bottom, q.bottom), right: Math.min(box.right, q.right) };
      }
    }
    const inside = r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1;
    const i = Math.min(8, r.width / 4, r.height / 4); // inside rounded corners
    const corners = [[r.left + i, r.top + i], [r.right - i, r.top + i], [r.left + i, r.bottom - i], [r.right - i, r.bottom - i]];
    const covered = corners.filter(([x, y]) => { const t = document.elementFromPoint(x, y); return !t || !(el === t || el.contains(t)); });
    return { ok: inside && covered.length === 0, why: JSON.stringify({ r: [r.top, r.bottom, r.left, r.right], box, covered }) };
  }, selector);
}

await test('a phone\'s Events & Explain view shows the whole explanation: its last line can be read', async () => {
  const page = await phone('en-US');
  await openStep(page, 'labels-taints', 7);
  await seekTo(page, 150000);
  await page.click('.phone-view[data-view="cluster"]');
  await page.click('.tray .pod >> nth=0');
  await page.waitForSelector('.explanation[data-kind="pod"] .answer');
  assert(await page.locator('.phone-view[data-view="inspect"][aria-pressed="true"]').count() === 1, 'the pod opens Explain');
  // Scroll the view as a thumb would, to its end: the explanation's last line comes into sight.
  await page.evaluate(() => { const s = document.querySelector('.panes'); s.scrollTop = s.scrollHeight; });
  const last = '.explanation[data-kind="pod"] > :last-child';
  const seen = await wholeInSight(page, last);
  assert(seen.ok, `the explanation's end is in sight once scrolled to: ${seen.why}`);
  const bottom = await page.evaluate(() => {
    const b = document.querySelector('.pane.cluster > .bottom').getBoundingClientRect();
    const ex = document.querySelector('.explanation').getBoundingClientRect();
    return { box: b.height, text: ex.height };
  });
  assert(bottom.box >= bottom.text, `the panel is as tall as what it says: ${JSON.stringify(bottom)}`);
  await page.screenshot({ path: path.join(artifacts, 'findings-phone-explain.png') });
  await page.context().close();
});

await test('at 1280x800 the editor never covers Problems: its heading and the first finding\'s line and column show', async () => {
  const page = await desktop();
  await openStep(page, 'labels-taints', 7);
  await page.click('.doc-tab:has-text("busybox")');
  await focusEditor(page);
  // A learner breaks the Deployment by typing: an unclosed flow sequence.
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.type('\nfoo: [bar,');
  await page.waitForSelector('.problems .problem', { timeout: slow(10000) });
  for (const part of ['#problems-title', '.problem-list li:first-child .where']) {
    const seen = await wholeInSight(page, part);
    assert(seen.ok, `${part} is in sight, not under the editor: ${seen.why}`);
  }
  const where = await page.locator('.problems .problem').first().innerText();
  assert(/line \d+/i.test(where), `the finding names its line: ${where}`);
  const editorLines = await page.evaluate(() => document.querySelector('.pane.manifests .editor').getBoundingClientRect().height / 20);
  assert(editorLines >= 5, `the editor keeps five lines at least: ${editorLines}`);
  await page.screenshot({ path: path.join(artifacts, 'findings-problems.png') });
  await page.context().close();
});

await test('a pasted multi-document stream becomes a tab per document, each problem named by its own document; Undo puts it back', async () => {
  const page = await desktop();
  await page.click('.doc-tab:has-text("nginx")');
  const tabsBefore = await page.locator('.doc-tab').count();
  const stream = [
    'apiVersion: apps/v1', 'kind: DaemonSet', 'metadata:', '  name: node-agent', 'spec:',
    '  selector: {matchLabels: {app: agent}}', '  template:', '    metadata: {labels: {app: agent}}',
    '    spec:', '      containers: [{name: a, image: busybox, resources: {requests: {cpu: lots}}}]',
    '---', 'apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: team-a', '',
  ].join('\n');
  await focusEditor(page);
  // A real paste: the clipboard's text, with Ctrl+V.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((t) => navigator.clipboard.writeText(t), '---\n' + stream);
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Control+V');
  await page.waitForFunction((n) => document.querySelectorAll('.doc-tab').length === n + 2, tabsBefore, { timeout: slow(10000) });
  const titles = await page.locator('.doc-tab').allInnerTexts();
  assert(titles.some((t) => /DaemonSet\s*node-agent/i.test(t)) && titles.some((t) => /Namespace\s*team-a/i.test(t)),
    `a tab per document, named after it: ${titles.join(' | ')}`);
  assert(/2 documents|3 documents/.test(await page.locator('.notice').innerText()), `a notice says so: ${await page.locator('.notice').innerText()}`);
  await page.waitForSelector('.problems .problem.error', { timeout: slow(10000) });
  const problem = await page.locator('.problems .problem.error').first().innerText();
  assert(/DaemonSet\/node-agent/.test(problem) && !/EC2NodeClass/.test(problem), `the problem names the DaemonSet's own tab: ${problem}`);
  await page.click('.notice button.undo');
  await page.waitForFunction((n) => document.querySelectorAll('.doc-tab').length === n, tabsBefore, { timeout: slow(10000) });
  await page.context().close();
});

await test('compare on a phone: A, B and B − A all show, nothing cut off on the right', async () => {
  for (const lang of ['en-US', 'ko-KR']) {
    const page = await phone(lang);
    await openStep(page, 'labels-taints', 8);
    await page.click('.phone-view[data-view="cluster"]');
    await page.waitForSelector('.compare-table', { timeout: slow(15000) });
    // At rest, where the figures are widest ($/month in the hundreds, B − A on every row).
    await seekTo(page, 300000);
    for (const col of [1, 2, 3]) {
      await page.locator(`.compare-table thead th:nth-child(${col + 1})`).scrollIntoViewIfNeeded();
      const seen = await wholeInSight(page, `.compare-table thead th:nth-child(${col + 1})`);
      assert(seen.ok, `${lang}: column ${col} of the comparison is in sight: ${seen.why}`);
    }
    const fit = await page.evaluate(() => {
      const t = document.querySelector('.compare-table').getBoundingClientRect();
      const c = document.querySelector('.cost-timeline').getBoundingClientRect();
      return { page: document.documentElement.scrollWidth, table: [t.left, t.right], box: [c.left, c.right],
        sideways: [...document.querySelectorAll('.panes, .pane.cluster')].map((e) => e.scrollLeft) };
    });
    assert(fit.page <= 390 && fit.table[0] >= fit.box[0] - 1 && fit.table[1] <= fit.box[1] + 1 && fit.sideways.every((x) => x === 0),
      `${lang}: the table within its panel, nothing scrolled sideways: ${JSON.stringify(fit)}`);
    await page.screenshot({ path: path.join(artifacts, `findings-phone-compare-${lang}.png`) });
    await page.context().close();
  }
});

await test('a phone\'s view opens at its top: from a scrolled cluster, Manifests shows its tabs', async () => {
  const page = await phone('en-US');
  await openStep(page, 'labels-taints', 7);
  await page.click('.phone-view[data-view="cluster"]');
  await page.evaluate(() => { const s = document.querySelector('.panes'); s.scrollTop = s.scrollHeight; });
  await page.click('.phone-view[data-view="manifests"]');
  const seen = await wholeInSight(page, '.doc-tabs');
  assert(seen.ok, `the document tabs are in sight: ${seen.why}`);
  await page.context().close();
});

await test('a lesson\'s exercise at 1280x800 shows whole in the lesson pane, its goals without markup', async () => {
  for (const lang of ['en-US', 'ko-KR']) {
    const page = await desktop(lang);
    await openStep(page, 'labels-taints', 7);
    await page.waitForSelector('.exercise');
    const seen = await wholeInSight(page, '.exercise');
    assert(seen.ok, `${lang}: the exercise, task to buttons, is in sight: ${seen.why}`);
    const goals = await page.locator('.exercise .goals').innerText();
    assert(!goals.includes('`'), `${lang}: no literal backticks in the goals: ${goals}`);
    await page.screenshot({ path: path.join(artifacts, `findings-exercise-${lang}.png`) });
    await page.context().close();
  }
});

await test('the cost chart\'s saving labels never lie on top of each other, at any width', async () => {
  // Half an hour on, the consolidations of the first minutes sit close together on the axis.
  const atHalfHour = async (page) => {
    await openStep(page, 'labels-taints', 6);
    await stepUntil(page, () => document.querySelectorAll('.ct-mark .saves').length >= 2);
    await seekTo(page, 1800000);
  };
  // The saving labels, and the peak price written at the plot's top left, which no label covers.
  const labels = (page) => page.locator('.ct-mark .saves, .ct-plot .ct-peak').evaluateAll((els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return { l: r.left, r: r.right, t: r.top, b: r.bottom, row: e.dataset.row ?? 'peak', text: e.textContent };
  }));
  const apart = (boxes, where) => {
    assert(boxes.length >= 3, `several savings ${where}: ${JSON.stringify(boxes)}`);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        const overlap = a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
        assert(!overlap, `${where}, ${a.text} and ${b.text} overlap: ${JSON.stringify([a, b])}`);
      }
    }
  };
  const page = await desktop();
  await atHalfHour(page);
  apart(await labels(page), 'at 1280 px');
  await page.locator('.cost-timeline').screenshot({ path: path.join(artifacts, 'findings-saving-labels.png') });
  // The window made narrower (still wider than a phone): the labels sit closer on the axis and
  // take their rows again, as a page opened at that width places them.
  const narrow = { width: 901, height: 800 }; // the phone's layout starts at 900
  const fresh = await open(narrow);
  await atHalfHour(fresh);
  const expected = (await labels(fresh)).map((b) => b.row).join();
  await fresh.context().close();
  await page.setViewportSize(narrow);
  await page.waitForFunction((rows) => [...document.querySelectorAll('.ct-mark .saves, .ct-plot .ct-peak')]
    .map((e) => e.dataset.row ?? 'peak').join() === rows,
    expected, { timeout: slow(5000) }).catch(() => {});
  const resized = await labels(page);
  apart(resized, `at ${narrow.width} px`);
  assert(resized.map((b) => b.row).join() === expected,
    `resized, the labels take the rows a page opened at that width gives them: ${resized.map((b) => b.row)} vs ${expected}`);
  await page.locator('.cost-timeline').screenshot({ path: path.join(artifacts, 'findings-saving-labels-narrow.png') });
  await page.context().close();
});

await test('the cluster view\'s words: one unit per gauge, plurals, and a node\'s age as an age', async () => {
  const page = await desktop();
  await openStep(page, 'labels-taints', 7);
  await seekTo(page, 309000);
  const text = await page.locator('.pane.cluster').innerText();
  assert(!/\b1 pods\b|\b1 nodes\b/.test(text), 'no "1 pods"');
  const gauges = text.match(/\d[\d.]*\s*(Mi|Gi|Ki|Ti)?\s*\/\s*\d[\d.]*\s*(Mi|Gi|Ki|Ti)\b/g) || [];
  for (const g of gauges) {
    const units = g.match(/(Mi|Gi|Ki|Ti)/g) || [];
    assert(units.length < 2 || units[0] === units[1], `one unit in a gauge: ${g}`);
  }
  const state = await page.locator('[data-lane="pool/platform"] .node.ready .state-line').first().textContent();
  assert(/Ready · (\d+m )?\d+s|Ready · \d+m/.test(state) && !/\d:\d\d/.test(state), `an age, not a time of day: ${state}`);
  await page.context().close();
});

await test('an embed tells its host the clock while it plays, not only when it starts and stops', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url + 'example-article.html');
  await page.evaluate(() => {
    window.__clocks = [];
    document.addEventListener('kpg:clock', (e) => window.__clocks.push(e.detail));
    document.querySelector('.karpenter-playground-embed').scrollIntoView({ block: 'center' });
  });
  await page.waitForFunction(() => window.KarpenterPlayground && window.KarpenterPlayground.embeds[0], null, { timeout: slow(30000) });
  await page.evaluate(() => window.KarpenterPlayground.embeds[0].ready);
  await page.click('#hello-controls button[data-do="play"]');
  // About playing itself: while it plays, the host hears the clock more than once, moving on.
  await page.waitForFunction(() => window.__clocks.filter((c) => c.playing).length >= 3, null, { timeout: slow(15000) });
  const ticks = await page.evaluate(() => window.__clocks.filter((c) => c.playing).map((c) => c.at));
  assert(ticks.every((t, i) => i === 0 || t >= ticks[i - 1]) && ticks[ticks.length - 1] > ticks[0], `the clock moves on: ${ticks}`);
  // The article's readout follows the clock past its first second (the embed plays at 1×).
  await page.waitForFunction(() => /^(0:0[1-9]|0:[1-5]\d|[1-9]\d*:\d\d), playing$/.test(document.getElementById('hello-clock').textContent),
    null, { timeout: slow(15000) });
  await page.click('#hello-controls button[data-do="pause"]');
  await ctx.close();
});

await test('no errors in the console', async () => {
  assert(errors.length === 0, errors.join('\n'));
});

await browser.close();
server.close();
finish();
