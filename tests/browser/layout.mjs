// The page as a learner meets it on a laptop: at 1280×800 the cluster of every lesson step (the
// summary, the pending tray and every lane) is in sight without scrolling, at every instant the
// step plays through, while the lesson's text stays open beside it.
//
//   node tests/browser/layout.mjs <dist> [artifacts]
import fs from 'node:fs';
import path from 'node:path';
import { launch, live, test, assert, finish, slow } from './harness.mjs';
import { serve } from './server.mjs';

const dist = process.argv[2] || 'dist';
const artifacts = process.argv[3] || 'target/browser-artifacts';
fs.mkdirSync(artifacts, { recursive: true });

const { server, url } = await serve(dist, '/');
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
const page = await context.newPage();

/** Stops walking a step after this many instants, or past this clock (what a step plays). */
const MAX_INSTANTS = 30;
const MAX_CLOCK_MS = 15 * 60 * 1000;

/** Where the cluster's parts are, and whether the cluster pane was scrolled to show them. */
function measure() {
  return page.evaluate(() => {
    const lanes = [...document.querySelectorAll('.pane.cluster .lane')];
    const last = lanes[lanes.length - 1];
    const tray = document.querySelector('.pane.cluster .tray');
    const summary = document.querySelector('.pane.cluster .summary');
    const lesson = document.querySelector('.pane.lesson-pane #lesson-body');
    return {
      lanes: lanes.length,
      lastLaneBottom: last ? Math.round(last.getBoundingClientRect().bottom) : 0,
      trayBottom: tray ? Math.round(tray.getBoundingClientRect().bottom) : 0,
      summaryTop: Math.round(summary.getBoundingClientRect().top),
      lessonOpen: !!lesson && lesson.getBoundingClientRect().height > 0,
      scrolled: document.querySelector('.pane.cluster').scrollTop,
      clock: Number(document.querySelector('.clock').getAttribute('data-ms')),
      viewport: innerHeight,
    };
  });
}

/** Waits until the cluster on screen is the one at the clock's instant. */
async function settled() {
  await page.waitForFunction(() => {
    const at = document.querySelector('.summary')?.getAttribute('data-at');
    return at === document.querySelector('.clock').getAttribute('data-ms');
  }, null, { timeout: slow(15000) });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

await test('at 1280×800 every lesson step shows its whole cluster beside the lesson, at every instant it plays through', async () => {
  await page.goto(url);
  await live(page);
  const lessons = (await page.$$eval('.lesson-picker select option', (os) => os.map((o) => o.value)))
    .filter((l) => l !== 'blank');
  assert(lessons.length >= 9, `every lesson is walked: ${lessons.join(', ')}`);
  const misses = [];
  let instants = 0;
  let steps = 0;
  let tallest = { bottom: 0 };
  for (const lesson of lessons) {
    if (await page.locator('.lesson-picker select').inputValue() !== lesson) {
      await page.selectOption('.lesson-picker select', lesson);
    }
    for (let step = 1; ; step++) {
      if (await page.locator('.lesson .open-lab').count()) await page.click('.lesson .open-lab');
      await settled();
      steps++;
      const where = `${lesson} step ${step}`;
      for (let i = 0; i < MAX_INSTANTS; i++) {
        const m = await measure();
        instants++;
        if (!m.lessonOpen) misses.push(`${where}: the lesson text is not open`);
        const bottom = Math.max(m.lastLaneBottom, m.trayBottom);
        if (bottom > m.viewport || m.summaryTop < 0 || m.scrolled > 0) {
          misses.push(`${where} at ${m.clock / 1000}s: ${m.lanes} lanes end at ${bottom}px of ${m.viewport}`);
        }
        if (bottom > tallest.bottom) {
          tallest = { bottom, where: `${where} at ${m.clock / 1000}s` };
          await page.screenshot({ path: path.join(artifacts, `layout-tallest-${lesson}.png`) });
        }
        if (m.clock >= MAX_CLOCK_MS) break;
        // The next instant at which something happens (the transport's ⇥).
        await page.click('.transport .next-instant');
        const moved = await page.waitForFunction((before) =>
          Number(document.querySelector('.clock').getAttribute('data-ms')) !== before, m.clock, { timeout: slow(2000) })
          .then(() => true, () => false);
        if (!moved) break;
        await settled();
      }
      await page.screenshot({ path: path.join(artifacts, `layout-${lesson}-${step}.png`) });
      const next = page.locator('.lesson-nav button.primary:not(.next-lesson)');
      if (!(await next.count()) || await next.isDisabled()) break;
      await next.click();
    }
  }
  console.log(`     ${steps} steps, ${instants} instants; the tallest cluster ends at ${tallest.bottom}px (${tallest.where})`);
  assert(misses.length === 0, `the cluster is out of sight:\n       ${misses.slice(0, 12).join('\n       ')}`);
});

await browser.close();
server.close();
finish();
