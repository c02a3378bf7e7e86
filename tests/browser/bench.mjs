// Measures the built page in headless Chromium (not a test: figures for the README).
//
//   node tests/browser/bench.mjs [dist]
//
// - first render: the page's own `kpg-first-render` performance mark (set in the first
//   animation frame after Leptos mounts), from navigation start, median of 7 cold loads;
// - frame rate while animating the seed 002 limits lab at 60x: frames counted with
//   requestAnimationFrame over the lab's busy first 3 simulated minutes, plus the longest frame.
import path from 'node:path';
import { createRequire } from 'node:module';
import { serve } from './server.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const dist = path.resolve(process.argv[2] || 'dist');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-quic', '--no-first-run', '--disable-sync'];

const { server, url } = await serve(dist, '/');
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

console.log(JSON.stringify({
  firstRenderMs: { median: Math.round(median), all: renders.map(Math.round) },
  limitsLabAt60x: { fps: Math.round(fps.fps * 10) / 10, longestFrameMs: Math.round(fps.longest), framesOver20ms: fps.over20ms, frames: fps.frames, simulatedClock: fps.simulated, nodes: fps.nodes },
}, null, 2));
await browser.close();
server.close();
