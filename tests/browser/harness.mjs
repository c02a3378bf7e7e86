// What every browser suite shares: Debian's Chromium driven by playwright-core (which never
// downloads a browser), a named test runner that prints "ok"/"FAIL" lines, and the summary
// that sets the exit status.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-quic', '--no-first-run', '--disable-sync'];

/** Headless Chromium (KPG_CHROMIUM overrides /usr/bin/chromium). */
export function launch() {
  return chromium.launch({ executablePath: process.env.KPG_CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
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
export async function live(page, timeout = 30000) {
  await page.waitForFunction(() => !document.getElementById('kpg-prerender')
    && performance.getEntriesByName('kpg-interactive').length > 0, null, { timeout });
}

/** Plays the open lab at 60× until the clock reaches `ms`, then pauses. */
export async function playUntil(page, ms) {
  await page.click('.speed >> text=60×');
  await page.click('button.play');
  await page.waitForFunction((t) => Number(document.querySelector('output.clock').dataset.ms) >= t,
    ms, { timeout: 60000 });
  await page.click('button.play');
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
  await page.waitForSelector('.pane.manifests .editor.cm-ready .cm-content', { timeout: 20000 });
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
    text.length, { timeout: 20000 });
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
