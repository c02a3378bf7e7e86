// What every browser suite shares: Debian's Chromium driven by playwright-core (which never
// downloads a browser), a named test runner that prints "ok"/"FAIL" lines, and the summary
// that sets the exit status.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-quic', '--no-first-run', '--disable-sync'];

/**
 * `KPG_CPU_THROTTLE=6` slows every page's CPU down that many times (DevTools'
 * Emulation.setCPUThrottlingRate, as Lighthouse's mobile profile does), to prove the suites
 * do not depend on the machine's speed. Timeouts grow by the same factor.
 */
export const CPU_THROTTLE = Math.max(1, Number(process.env.KPG_CPU_THROTTLE || 1));

/** A timeout in ms, stretched for a throttled CPU. */
export const slow = (ms) => ms * CPU_THROTTLE;

async function throttle(page) {
  page.setDefaultTimeout(slow(30000));
  if (CPU_THROTTLE === 1) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE });
}

/** Headless Chromium (KPG_CHROMIUM overrides /usr/bin/chromium); every page it opens is throttled. */
export async function launch() {
  const browser = await chromium.launch({ executablePath: process.env.KPG_CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const ctx = await newContext(options);
    const newPage = ctx.newPage.bind(ctx);
    ctx.newPage = async () => { const p = await newPage(); await throttle(p); return p; };
    return ctx;
  };
  browser.newPage = async (options) => {
    const ctx = await browser.newContext(options);
    const p = await ctx.newPage();
    // As playwright's own newPage: closing the page closes its context.
    const close = p.close.bind(p);
    p.close = async (o) => { await close(o); await ctx.close(); };
    return p;
  };
  return browser;
}

let passed = 0;
let failed = 0;

/**
 * Runs one named test; a throw is a failure, printed with the first lines of its stack.
 * `KPG_ONLY=a|b` runs only the tests whose names contain `a` or `b` (while working on them;
 * a suite's later tests may build on earlier ones).
 */
export async function test(name, fn) {
  const only = process.env.KPG_ONLY;
  if (only && !only.split('|').some((part) => name.includes(part))) return;
  const t0 = Date.now();
  try {
    await fn();
    passed++;
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n     ${String(e && e.stack || e).split('\n').slice(0, 6).join('\n     ')}`);
  }
}

/**
 * Waits until the live page runs: a first visit is painted from the build's drawn copy
 * (#kpg-prerender, inert) before the wasm starts, and a test must act on the live page.
 */
export async function live(page, timeout = slow(30000)) {
  await page.waitForFunction(() => !document.getElementById('kpg-prerender')
    && !document.getElementById('kpg-first-frame')
    && performance.getEntriesByName('kpg-interactive').length > 0, null, { timeout });
}

/** `150000` → `2:30`, as the page's clock shows it; `1500` → `1500ms`. */
export function clockText(ms) {
  if (ms % 1000) return `${ms}ms`;
  const s = ms / 1000;
  const [h, m] = [Math.floor(s / 3600), Math.floor(s / 60) % 60];
  const two = (n) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** Waits until the cluster on screen is the engine's at the clock's instant. */
export async function settled(page, timeout = slow(30000)) {
  await page.waitForFunction(() => {
    const clock = document.querySelector('output.clock');
    const summary = document.querySelector('.summary');
    return clock && summary && summary.dataset.at === clock.dataset.ms;
  }, null, { timeout });
}

/**
 * Goes to the instant `ms` as a learner does, whatever the machine's speed: a click on the
 * clock, the time typed with real keys, Enter. Returns once the cluster shows that instant.
 */
export async function seekTo(page, ms) {
  await page.click('.transport .clock-go');
  await page.waitForSelector('.transport .clock-input:focus');
  await page.keyboard.type(clockText(ms));
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => document.querySelector('output.clock')?.dataset.ms === String(t), ms,
    { timeout: slow(30000) });
  await settled(page);
}

/**
 * Moves the clock from one instant where something happens to the next (the transport's ⇥)
 * until `predicate(arg)` holds in the page, and stops there. Throws after `max` instants.
 * The simulation decides the instants, so this lands at the same one on any machine.
 */
export async function stepUntil(page, predicate, arg, { max = 300 } = {}) {
  await settled(page);
  for (let i = 0; i < max; i++) {
    if (await page.evaluate(predicate, arg)) return;
    const before = await page.locator('output.clock').getAttribute('data-ms');
    // force: no wait for the header to stand still (on a busy machine a phone's header can
    // take longer than playwright waits for two equal frames); the click lands on the button.
    await page.click('.transport button.next-instant', { force: true });
    await page.waitForFunction((b) => document.querySelector('output.clock')?.dataset.ms !== b, before,
      { timeout: slow(30000) }).catch(() => {});
    await settled(page);
    if (await page.locator('output.clock').getAttribute('data-ms') === before) break;
  }
  if (await page.evaluate(predicate, arg)) return;
  throw new Error(`stepUntil: never held up to ${await page.locator('output.clock').getAttribute('data-ms')} ms: ${predicate}`);
}

export function assert(cond, msg) { if (!cond) throw new Error(msg); }

/** Prints "N passed, M failed" and exits non-zero on any failure. */
export function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

/**
 * Waits until the page's YAML editor is CodeMirror (web/editor, loaded once the live page
 * shows); the textarea editor before it is hidden then, and a test types into CodeMirror.
 */
export async function editorReady(page) {
  await page.waitForSelector('.pane.manifests .editor.cm-ready .cm-content', { timeout: slow(20000) });
}

/**
 * Replaces the open document's text as a paste does (one change, reported to the page once
 * the editor's change delay passes), and waits until the page has it. Not
 * `locator('.cm-content').fill()`: CodeMirror's DOM holds only the lines on screen.
 */
export async function fillEditor(page, text) {
  await editorReady(page);
  await page.evaluate((text) => {
    const view = document.querySelector('.pane.manifests .editor').kpgEditor.view;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: 'input.paste' });
  }, text);
  await page.waitForFunction((n) => document.querySelector('.pane.manifests textarea.input').value.length === n,
    text.length, { timeout: slow(20000) });
}

/** The open document's text as the editor shows it. */
export async function editorText(page) {
  await editorReady(page);
  return page.evaluate(() => document.querySelector('.pane.manifests .editor').kpgEditor.view.state.doc.toString());
}

/** Puts the focus in the editor, at the end of its text. */
export async function focusEditor(page) {
  await editorReady(page);
  await page.evaluate(() => {
    const view = document.querySelector('.pane.manifests .editor').kpgEditor.view;
    view.dispatch({ selection: { anchor: view.state.doc.length } });
    view.focus();
  });
}

/**
 * The editor's line numbers name the lines they sit beside: for every line on screen, the
 * number in the gutter at its height is the line whose text it shows (`lines`: the document,
 * split at '\n'). Returns the mismatches (empty: all good) and how many lines were compared.
 */
export function gutterMismatches(page, lines) {
  return page.evaluate((lines) => {
    const editor = document.querySelector('.pane.manifests .cm-editor');
    const box = editor.querySelector('.cm-scroller').getBoundingClientRect();
    const numbers = [...editor.querySelectorAll('.cm-lineNumbers .cm-gutterElement')]
      .filter((g) => g.style.visibility !== 'hidden' && g.textContent !== '')
      .map((g) => ({ top: g.getBoundingClientRect().top, n: Number(g.textContent) }));
    const bad = [];
    let compared = 0;
    for (const line of editor.querySelectorAll('.cm-content > .cm-line')) {
      const r = line.getBoundingClientRect();
      if (r.bottom <= box.top || r.top >= box.bottom) continue;
      compared++;
      const g = numbers.find((x) => Math.abs(x.top - r.top) < 1);
      if (!g || lines[g.n - 1] !== line.textContent) bad.push({ text: line.textContent, number: g && g.n });
    }
    return { bad, compared };
  }, lines);
}

/**
 * Runs axe-core (from NODE_PATH, installed by scripts/setup-web) on a page or frame and returns
 * its critical and serious violations, each as `rule ×count: target …`. `options.include`:
 * a selector to check only part of the document.
 */
export async function axeViolations(pageOrFrame, { include } = {}) {
  const source = require('fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // What the page shows once its entrance animations (a card fading in) are over.
  await pageOrFrame.evaluate(() => Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => {}))));
  if (!(await pageOrFrame.evaluate(() => !!window.axe))) await pageOrFrame.evaluate(source);
  const found = await pageOrFrame.evaluate(async (include) => {
    const r = await window.axe.run(include ? { include: [include] } : document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({ id: v.id, impact: v.impact, count: v.nodes.length,
        targets: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} (${(n.failureSummary || '').split('\n').slice(1, 2).join('').trim()})`) }));
  }, include || null);
  return found.map((v) => `${v.impact} ${v.id} ×${v.count}: ${v.targets.join(' | ')}`);
}

/** Scrolls the article's first embed into view and returns its frame once its page shows. */
export async function firstEmbedFrame(page) {
  await page.evaluate(() => document.querySelector('.karpenter-playground-embed').scrollIntoView({ block: 'center' }));
  const handle = await page.waitForSelector('.karpenter-playground-embed iframe', { timeout: slow(30000) });
  return handle.contentFrame();
}
