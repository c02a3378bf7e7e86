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

/** Runs one named test; a throw is a failure, printed with the first lines of its stack. */
export async function test(name, fn) {
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

export function assert(cond, msg) { if (!cond) throw new Error(msg); }

/** Prints "N passed, M failed" and exits non-zero on any failure. */
export function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
