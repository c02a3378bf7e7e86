// Measures the built page in headless Chromium (not a test: figures for the README).
//
//   node tests/browser/bench.mjs [dist]
//
// - first render: the page's own `kpg-first-render` performance mark (set in the first
//   animation frame after Leptos mounts), from navigation start, median of 7 cold loads;
// - frame rate while animating the seed 002 limits lab at 60x: frames counted with
//   requestAnimationFrame over the lab's busy first 3 simulated minutes, plus the longest frame;
// - a cold load as a phone feels it, served gzipped (as static hosts do), under Lighthouse's
//   mobile profile (CDP: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4x slower)
//   and unthrottled, median of 3 each: bytes downloaded before the first cluster render,
//   first cluster render, Largest Contentful Paint, and the longest main-thread task
//   (`longtask` entries, over 50 ms) until the page settles.
import path from 'node:path';
import { createRequire } from 'node:module';
import { serve } from './server.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const dist = path.resolve(process.argv[2] || 'dist');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-quic', '--no-first-run', '--disable-sync'];

const { server, url } = await serve(dist, '/');
const zipped = await serve(dist, '/', { gzip: true });
const browser = await chromium.launch({ executablePath: process.env.KPG_CHROMIUM || '/usr/bin/chromium', args: ARGS });

const renders = [];
for (let i = 0; i < 7; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(url);
  const t = await page.waitForFunction(() => {
    const m = performance.getEntriesByName('kpg-first-render');
    return m.length ? m[0].startTime : null;
  }, null, { timeout: 30000 });
  renders.push(await t.jsonValue());
  await ctx.close();
}
renders.sort((a, b) => a - b);
const median = renders[Math.floor(renders.length / 2)];

const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
const page = await ctx.newPage();
await page.goto(url);
await page.waitForSelector('.summary');
await page.selectOption('.lesson-picker select', 'labels-taints');
// The limits lab is the lesson's last step.
for (let i = 0; i < 4; i++) await page.click('.lesson-nav button.primary');
await page.waitForSelector('[data-lane="pool/platform"]');
await page.click('.speed >> text=60×');
const fps = await page.evaluate(async () => {
  const frames = [];
  document.querySelector('button.play').click();
  await new Promise((resolve) => {
    const start = performance.now();
    const tick = (t) => {
      frames.push(t);
      if (t - start < 3000) requestAnimationFrame(tick); else resolve();
    };
    requestAnimationFrame(tick);
  });
  document.querySelector('button.play').click();
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  return {
    fps: (frames.length - 1) / ((frames[frames.length - 1] - frames[0]) / 1000),
    longest: Math.max(...gaps),
    over20ms: gaps.filter((g) => g > 20).length,
    frames: frames.length,
    simulated: document.querySelector('.clock').textContent,
    nodes: document.querySelectorAll('.node').length,
  };
});

/** One cold load of the gzip-serving copy, throttled like Lighthouse's mobile profile or not. */
async function coldLoad(throttled) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    window.__kpg = { lcp: 0, longest: 0 };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__kpg.lcp = Math.max(window.__kpg.lcp, e.startTime);
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__kpg.longest = Math.max(window.__kpg.longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttled) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  // Bytes on the wire (compressed), counted as each response finishes.
  let wire = 0;
  let wireAtRender = null;
  cdp.on('Network.loadingFinished', (e) => { wire += e.encodedDataLength; });
  await page.goto(zipped.url, { waitUntil: 'commit' });
  const rendered = await page.waitForFunction(() => {
    const m = performance.getEntriesByName('kpg-first-render');
    return m.length ? m[0].startTime : null;
  }, null, { timeout: 120000, polling: 50 });
  const firstRender = await rendered.jsonValue();
  wireAtRender = wire;
  // Let late tasks and the LCP candidate settle, then read them.
  await page.waitForTimeout(throttled ? 3000 : 1000);
  const seen = await page.evaluate(() => window.__kpg);
  await ctx.close();
  return { firstRender, lcp: seen.lcp, longestTask: seen.longest, bytes: wireAtRender };
}

async function loadProfile(throttled) {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await coldLoad(throttled));
  const med = (k) => {
    const v = runs.map((r) => r[k]).sort((a, b) => a - b);
    return Math.round(v[1]);
  };
  return {
    bytesBeforeFirstRender: med('bytes'),
    firstRenderMs: med('firstRender'),
    lcpMs: med('lcp'),
    longestTaskMs: med('longestTask'),
    runs: runs.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v)]))),
  };
}

const phone = await loadProfile(true);
const desktop = await loadProfile(false);

console.log(JSON.stringify({
  firstRenderMs: { median: Math.round(median), all: renders.map(Math.round) },
  coldLoadMobileProfile: phone,
  coldLoadUnthrottled: desktop,
  limitsLabAt60x: { fps: Math.round(fps.fps * 10) / 10, longestFrameMs: Math.round(fps.longest), framesOver20ms: fps.over20ms, frames: fps.frames, simulatedClock: fps.simulated, nodes: fps.nodes },
}, null, 2));
await browser.close();
server.close();
zipped.server.close();
