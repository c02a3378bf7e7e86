// Browser tests of the blog embed (dist/embed.js) on the example article
// (dist/example-article.html), served under a sub-path like a static host, in headless Chromium
// driven by playwright-core.
//
//   node tests/browser/embed.mjs [dist] [artifacts]
//
// Prints the bytes the article downloads before any embed is visible and the time from an
// embed entering the viewport to its first cluster render, "N passed, M failed", and exits
// non-zero on any failure. Screenshots go to the artifacts folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { serve } from './server.mjs';
import { assert, editorText, fillEditor, finish, launch, live, slow, test } from './harness.mjs';

const dist = path.resolve(process.argv[2] || 'dist');
const artifacts = path.resolve(process.argv[3] || 'target/browser-artifacts');
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
fs.mkdirSync(artifacts, { recursive: true });

const figures = [];
function figure(what, value) {
  figures.push(`${what}: ${value}`);
  console.log(`     ${what}: ${value}`);
}

const lab = (name) => fs.readFileSync(path.join(repo, 'tests/labs', name), 'utf8');
// The article's first scenario is the hello-world lab without its leading comment block.
const HELLO = lab('seed000-hello-world.yaml').replace(/^(?:#.*\n)+/, '');
const LIMITS = lab('seed002-limits.yaml');
const CONSOLIDATION = lab('seed002-consolidation.yaml');
const SCALE_OUT = lab('seed002-scale-out.yaml');

const PREFIX = '/blog/karpenter-playground/';
const { server, url } = await serve(dist, PREFIX);
const ARTICLE = url + 'example-article.html';
const browser = await launch();

// Every kpg: DOM event the embeds fire, recorded from the first moment in each page (the
// wrapper's events bubble to the document): { i: the embed's index, type, detail }.
function recorder() {
  window.__kpg = [];
  // A promise the test awaits in the page, bounded so a silent embed fails instead of hanging.
  window.within = (promise, ms = 30000) => Promise.race([promise,
    new Promise((resolve, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))]);
  for (const type of ['kpg:ready', 'kpg:loaded', 'kpg:clock', 'kpg:event', 'kpg:resize']) {
    document.addEventListener(type, (e) => {
      const api = window.KarpenterPlayground;
      const i = api ? api.embeds.findIndex((x) => x.element === e.target) : -1;
      window.__kpg.push({ i, type, detail: e.detail });
    });
  }
}

const errors = [];
/** A page whose uncaught errors and console errors (its frames' too) fail the last test. */
async function open(context, where) {
  const page = await context.newPage();
  const label = where.split('/').pop();
  page.on('pageerror', (e) => errors.push(`${label}: ${e}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${label}: ${m.text()}`); });
  await page.addInitScript(recorder);
  await page.goto(where);
  return page;
}

const mark = (page) => page.evaluate(() => window.__kpg.length);

/** The first kpg: message of embed i after `from` whose detail has the fields of `match`. */
async function message(page, i, type, from, match = {}, timeout = 30000) {
  try {
    const handle = await page.waitForFunction(({ i, type, from, match }) => {
      const has = (obj, m) => obj != null && Object.entries(m).every(([k, v]) =>
        (v && typeof v === 'object' ? has(obj[k], v) : obj[k] === v));
      return window.__kpg.slice(from).find((r) => r.i === i && r.type === type && has(r.detail, match)) || null;
    }, { i, type, from, match }, { timeout });
    return (await handle.jsonValue()).detail;
  } catch (e) {
    const seen = await page.evaluate((from) => window.__kpg.slice(from).slice(-8), from).catch(() => []);
    throw new Error(`no ${type} ${JSON.stringify(match)} from embed ${i}; last seen: ${JSON.stringify(seen)}`);
  }
}

async function frameOf(page, i) {
  const handle = await page.locator('.karpenter-playground-embed').nth(i).locator('iframe').elementHandle();
  return handle.contentFrame();
}

/**
 * Scrolls embed i into view and times it until its first kpg:loaded (the cluster rendered).
 * An embed that loaded already (the page above it changed height and brought it within the
 * observer's margin) answers `early` with no time: tests that time a load assert it is not.
 */
function scrollToEmbed(page, i) {
  return page.evaluate(async (i) => {
    const wrapper = document.querySelectorAll('.karpenter-playground-embed')[i];
    const posterHeight = wrapper.getBoundingClientRect().height;
    const before = window.__kpg.find((r) => r.i === i && r.type === 'kpg:loaded');
    if (before) {
      wrapper.scrollIntoView({ block: 'center' });
      return { ms: null, early: true, detail: before.detail, posterHeight };
    }
    const loaded = new Promise((resolve, reject) => {
      wrapper.addEventListener('kpg:loaded', (e) => resolve(e.detail), { once: true });
      setTimeout(() => {
        // What the embed got to, so a failure says where it stopped.
        const iframe = wrapper.querySelector('iframe');
        let inside = 'another origin';
        try {
          const doc = iframe && iframe.contentDocument;
          inside = doc ? `${doc.readyState}, app: ${!!doc.querySelector('.app')}, summary: ${!!doc.querySelector('.summary')}` : 'no document';
        } catch (e) { /* cross-origin */ }
        const rect = wrapper.getBoundingClientRect();
        const seen = window.__kpg.filter((r) => r.i === i).map((r) => r.type).slice(-8);
        reject(new Error(`embed ${i}: no kpg:loaded within 30 s of scrolling to it (state ${wrapper.dataset.state}, `
          + `frame ${iframe ? iframe.loading + ' ' + iframe.src : 'none'}, inside: ${inside}, top ${Math.round(rect.top)} of ${innerHeight}, `
          + `messages: ${seen.join(' ') || 'none'})`));
      }, 30000);
    });
    const t0 = performance.now();
    wrapper.scrollIntoView({ block: 'center' });
    const detail = await loaded;
    return { ms: Math.round(performance.now() - t0), early: false, detail, posterHeight };
  }, i);
}

/** The embed's frame fits its content: its height is the reported one, no scrollbar inside. */
async function fitsContent(page, i) {
  const frame = await frameOf(page, i);
  let state = null;
  for (const t0 = Date.now(); Date.now() - t0 < 10000; await page.waitForTimeout(100)) {
    // Read from both sides, so it works for a frame on another origin too.
    const host = await page.evaluate((i) => {
      const f = document.querySelectorAll('.karpenter-playground-embed')[i].querySelector('iframe');
      const sizes = window.__kpg.filter((r) => r.i === i && r.type === 'kpg:resize').map((r) => r.detail.height);
      return { clientHeight: f.clientHeight, resizes: sizes };
    }, i);
    const scrollHeight = await frame.evaluate(() => document.documentElement.scrollHeight);
    state = { ...host, scrollHeight };
    const last = host.resizes[host.resizes.length - 1];
    if (last != null && host.clientHeight === Math.min(2000, Math.max(240, Math.round(last)))
      && scrollHeight <= host.clientHeight + 1) return;
  }
  throw new Error(`embed ${i} does not fit its content: ${JSON.stringify(state)}`);
}

/**
 * Messages from strangers change nothing: a sibling frame of the host page (the same origin as
 * the host, so it can reach the first embed's window) sends the embed commands and sends the
 * host kpg: messages as if it were the embed; the host page posts one to itself; and the
 * embed's own window posts things that are not protocol messages. Then the host's API shows
 * that the same command from the right window works.
 */
/** Shows and applies the first embed's solution by keyboard, then seeks to 30:00 and waits for
 * the task to be solved there. */
async function applySolutionByKeyboard(p, frame) {
  await frame.locator('.show-solution').focus();
  await p.keyboard.press('Enter');
  await frame.locator('.apply-solution').focus();
  await p.keyboard.press('Enter');
  await p.evaluate(() => window.KarpenterPlayground.embeds[0].seek('30m'));
  await frame.waitForFunction(() => document.querySelector('.exercise')?.dataset.solved === 'true', null, { timeout: slow(20000) });
}

async function strangers(p, frame) {
  const height = await p.evaluate(() => document.querySelector('.karpenter-playground-embed iframe').clientHeight);
  let from = await mark(p);
  await p.evaluate(() => new Promise((resolve) => {
    const sibling = document.createElement('iframe');
    sibling.style.cssText = 'width:10px;height:10px;border:0';
    sibling.srcdoc = `<script>
      const embed = parent.document.querySelector('.karpenter-playground-embed iframe').contentWindow;
      embed.postMessage({ type: 'kpg:load', yaml: 'apiVersion: v1\\nkind: Pod\\nmetadata:\\n  name: intruder\\n' }, '*');
      embed.postMessage({ type: 'kpg:seek', at: 600000 }, '*');
      embed.postMessage({ type: 'kpg:play' }, '*');
      parent.postMessage({ type: 'kpg:resize', height: 1999 }, '*');
      parent.postMessage({ type: 'kpg:loaded', ok: true, documents: 99, errors: [], at: 0 }, '*');
      parent.postMessage({ type: 'kpg:clock', at: 1, playing: true }, '*');
      parent.postMessage({ type: 'kpg:event', event: { kind: 'nodeLaunched', at: 0, node: '<img src=x onerror="parent.__pwned=1">' } }, '*');
    <\/script>`;
    sibling.onload = () => resolve();
    document.body.append(sibling);
  }));
  await p.evaluate(() => window.postMessage({ type: 'kpg:resize', height: 1999 }, '*'));
  await frame.evaluate(() => {
    parent.postMessage('kpg:resize', '*');
    parent.postMessage({ type: 'kpg:resize', height: '1999' }, '*');
    parent.postMessage({ type: 'kpg:nonsense' }, '*');
    parent.postMessage(null, '*');
  });
  await p.waitForTimeout(2000);
  // An embed may resize itself any time; what must not appear is anything the strangers said,
  // or an answer to their commands.
  const stray = await p.evaluate((from) => window.__kpg.slice(from)
    .filter((r) => r.type !== 'kpg:resize' || r.detail.height === 1999 || r.detail.height === '1999'), from);
  assert(stray.length === 0, `no stray message reached the host API, and the embed acted on none: ${JSON.stringify(stray)}`);
  assert(await p.evaluate(() => document.querySelector('.karpenter-playground-embed iframe').clientHeight) === height, 'the frame kept its height');
  assert(await frame.locator('text=intruder').count() === 0, 'the sibling\'s scenario was not loaded');
  from = await mark(p);
  await p.evaluate(() => window.KarpenterPlayground.embeds[0].seek('1m'));
  await message(p, 0, 'kpg:clock', from, { at: 60000 });
  await p.evaluate(() => document.querySelectorAll('iframe[srcdoc]').forEach((f) => f.remove()));
}

const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
// The page's wasm and its engine worker's: each is fetched once however many embeds load.
const wasmCounts = () => [...server.requests].filter(([p]) => p.endsWith('.wasm')).map(([, c]) => c);
const wasmRequests = () => Math.max(0, ...wasmCounts());

const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
let page;

await test('with JavaScript off each scenario is its drawing, and its YAML a click away (the seed labs)', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
  const p = await ctx.newPage();
  await p.goto(ARTICLE);
  const pres = await p.locator('pre.karpenter-playground').all();
  assert(pres.length === 3, `three scenarios, saw ${pres.length}`);
  assert(await p.locator('.karpenter-playground-embed').count() === 0, 'nothing converted without the script');
  const texts = await p.locator('pre.karpenter-playground').allTextContents();
  assert(texts[0] === HELLO, 'the first is seed000-hello-world.yaml without its comment block');
  assert(texts[1] === LIMITS, 'the second is seed002-limits.yaml');
  assert(texts[2] === CONSOLIDATION, 'the third is seed002-consolidation.yaml');
  const drawings = await p.locator('svg.kpg-poster').all();
  assert(drawings.length === 3, `three drawings, saw ${drawings.length}`);
  const box = await drawings[0].boundingBox();
  assert(await drawings[0].isVisible() && box.height > 100, `the first drawing shows: ${JSON.stringify(box)}`);
  const label = await drawings[0].getAttribute('aria-label');
  assert(/^NodePool hello-world: 0 nodes · \$0\.0000\/h · 0 pods running · 1 pending$/.test(label),
    `its name says what it shows (at 0s: no node, the pod pending): ${label}`);
  assert(!(await pres[0].isVisible()), 'the YAML is folded under it');
  await p.locator('summary').first().focus();
  await p.keyboard.press('Enter');
  assert(await pres[0].isVisible() && (await pres[0].innerText()).includes('kind: NodePool'), 'a key opens the YAML');
  assert(await p.locator('#hello-controls').isHidden(), 'the scripted buttons stay hidden');
  await p.screenshot({ path: path.join(artifacts, 'embed-00-no-javascript.png') });
  await ctx.close();
});

await test('before any embed is visible, the article downloads itself and embed.js, nothing else', async () => {
  server.resetCounts();
  page = await open(desktop, ARTICLE);
  await page.waitForLoadState('load');
  await page.waitForTimeout(1500); // the observer's first callbacks, and anything lazy, have run
  const state = await page.evaluate(() => ({
    api: window.KarpenterPlayground && window.KarpenterPlayground.version,
    embeds: window.KarpenterPlayground.embeds.length,
    frames: document.querySelectorAll('iframe').length,
    states: [...document.querySelectorAll('.karpenter-playground-embed')].map((w) => w.dataset.state),
    tops: [...document.querySelectorAll('.karpenter-playground-embed')].map((w) => w.getBoundingClientRect().top + scrollY),
    heights: [...document.querySelectorAll('.karpenter-playground-embed')].map((w) => w.getBoundingClientRect().height),
    hidden: [...document.querySelectorAll('.karpenter-playground-embed > pre.karpenter-playground')].map((p) => p.hidden && getComputedStyle(p).display),
    drawings: [...document.querySelectorAll('.karpenter-playground-embed')].map((w) => {
      const svg = w.querySelector(':scope > .kpg-cover > svg.kpg-poster');
      return svg && Math.round(svg.getBoundingClientRect().height + 2);
    }),
    details: document.querySelectorAll('details').length,
    code: document.querySelectorAll('.kpg-code').length,
    run: document.querySelector('.kpg-run').textContent,
    sources: [...document.querySelectorAll('.karpenter-playground-embed > pre')].map((p) => p.textContent),
  }));
  assert(state.api === 1 && state.embeds === 3, `three embeds, API version 1: ${JSON.stringify(state.api)} ${state.embeds}`);
  assert(state.frames === 0 && state.states.every((s) => s === 'poster'), `no frame before scrolling: ${state.frames} ${state.states}`);
  assert(state.tops[0] > 800 + 300, `the first embed starts below the viewport and its margin (${Math.round(state.tops[0])} px)`);
  assert(state.tops[1] > 800 && state.tops[2] > 2 * 800, `the second is below the fold, the third two screens down: ${state.tops.map(Math.round)}`);
  assert(state.drawings.every((h) => h > 150) && state.heights.map(Math.round).join() === state.drawings.join(),
    `each embed is its drawing, and nothing else (the drawing's height plus the border): ${state.heights} ${state.drawings}`);
  assert(state.details === 0 && state.code === 0, `no YAML excerpt, no <details> left: ${state.details} ${state.code}`);
  assert(state.hidden.every((d) => d === 'none'), 'the original <pre>s stay in the DOM, hidden');
  assert(state.sources[0] === HELLO && state.sources[2] === CONSOLIDATION, 'with their text');
  assert(state.run === '▶ Run in Karpenter Playground', `the run button: ${state.run}`);
  const paths = [...server.requests.keys()].sort();
  assert(paths.join() === [PREFIX + 'embed.js', PREFIX + 'example-article.html'].join(), `downloaded: ${paths.join(', ')}`);
  const bytes = [...server.bytes.values()].reduce((a, b) => a + b, 0);
  figure('bytes an article with three embeds downloads before any embed is visible',
    `${bytes} B (article ${server.bytes.get(PREFIX + 'example-article.html')} B + embed.js ${server.bytes.get(PREFIX + 'embed.js')} B; ${gz('example-article.html') + gz('embed.js')} B from a host that gzips)`);
  await page.screenshot({ path: path.join(artifacts, 'embed-01-article-top.png') });
});

await test('the first embed loads as it comes into view: the cluster shows, the frame fits its content', async () => {
  const { ms, early, detail, posterHeight } = await scrollToEmbed(page, 0);
  assert(!early, 'the first embed loaded only when scrolled to');
  figure('viewport to first cluster render, first embed (cold: downloads the page and its wasm)', `${ms} ms`);
  assert(detail.ok === true && detail.documents === 3, `kpg:loaded ok with 3 documents: ${JSON.stringify(detail)}`);
  assert(posterHeight > 150, `the drawing gave the embed its height: ${posterHeight}`);
  const frame = await frameOf(page, 0);
  await frame.waitForSelector('.summary', { timeout: slow(10000) });
  await frame.waitForSelector('[data-lane="pool/hello-world"]', { timeout: slow(10000) });
  await fitsContent(page, 0);
  const iframe = await page.evaluate(() => {
    const f = document.querySelector('.karpenter-playground-embed iframe');
    return { src: f.src, title: f.title, loading: f.loading, allow: f.getAttribute('allow'), state: f.parentElement.dataset.state, posters: f.parentElement.querySelectorAll('.kpg-cover, .kpg-poster').length, behind: f.className };
  });
  assert(iframe.src === url + 'index.html?embed&scenario=message&view=cluster%2Cmanifests', `the frame's URL: ${iframe.src}`);
  assert(iframe.title === 'Hello, Karpenter: one NodePool, one pending pod', `its title is data-title: ${iframe.title}`);
  assert(iframe.loading === 'lazy' && iframe.allow === null, `lazy, asks for no permissions: ${iframe.loading} ${iframe.allow}`);
  assert(iframe.state === 'ready' && iframe.posters === 0 && iframe.behind === '', 'the drawing is gone once the cluster is drawn');
  const others = await page.evaluate(() => [...document.querySelectorAll('.karpenter-playground-embed')].slice(1).map((w) => w.querySelector('iframe') === null));
  assert(others.every(Boolean), 'the embeds further down are still posters');
  await page.screenshot({ path: path.join(artifacts, 'embed-02-first-embed.png') });
});

await test('the second and third embeds load when scrolled to; the three share the wasm (no download per embed)', async () => {
  const from = await mark(page);
  const second = await scrollToEmbed(page, 1);
  assert(!second.early, 'the second embed loaded only when scrolled to');
  figure('viewport to first cluster render, second embed (page and wasm from the browser cache)', `${second.ms} ms`);
  assert(second.detail.ok === true && second.detail.documents === 5, `limits lab loaded: ${JSON.stringify(second.detail)}`);
  const f1 = await frameOf(page, 1);
  await f1.waitForSelector('[data-lane="pool/platform"]', { timeout: slow(10000) });
  await f1.waitForSelector('[data-lane="pool/service"]', { timeout: slow(10000) });
  await fitsContent(page, 1);
  const src1 = await page.locator('.karpenter-playground-embed iframe').nth(1).getAttribute('src');
  assert(src1.endsWith('index.html?embed&scenario=message&autoplay=1&speed=60&until=5m'), `autoplay, 60×, until 5m: ${src1}`);
  // Autoplay at 60× reaches 5m in 5 s of real time, and the clock stops there.
  await message(page, 1, 'kpg:clock', from, { at: 300000, playing: false }, 30000);
  await f1.waitForFunction(() => document.querySelectorAll('.tray .pod').length === 2, null, { timeout: slow(10000) });

  const third = await scrollToEmbed(page, 2);
  assert(!third.early, 'the third embed loaded only when scrolled to');
  figure('viewport to first cluster render, third embed (from the cache)', `${third.ms} ms`);
  assert(third.detail.ok === true && third.detail.documents === 6, `consolidation lab loaded: ${JSON.stringify(third.detail)}`);
  const f2 = await frameOf(page, 2);
  await f2.waitForSelector('[data-lane="pool/platform"]', { timeout: slow(10000) });
  await fitsContent(page, 2);
  const src2 = await page.locator('.karpenter-playground-embed iframe').nth(2).getAttribute('src');
  assert(src2.endsWith('index.html?embed&scenario=message&view=cluster%2Cevents&speed=60&theme=dark'), `dark, events: ${src2}`);
  // Three embeds share one copy of each wasm: fewer requests than embeds. (Usually one each;
  // on a machine busy enough that Chromium is still writing the first copy into its cache
  // when the next frame asks, that frame fetches it again, as a CI run beside another build
  // once showed for the worker's.)
  assert(wasmCounts().length === 2 && wasmRequests() < 3, `each wasm (page, engine worker) came from the server once or twice, not per embed: ${JSON.stringify([...server.requests])}`);
  figure('requests for the playground page / its wasm, three embeds', `${server.requests.get(PREFIX + 'index.html')} / ${wasmRequests()}`);
  await page.waitForTimeout(400); // the frame's fade-in
  await page.screenshot({ path: path.join(artifacts, 'embed-03-third-embed.png') });
  await page.screenshot({ path: path.join(artifacts, 'embed-03-article-full.png'), fullPage: true });
});

await test('the host drives an embed: load, play, seek, pause, and hears its clock and events', async () => {
  await page.evaluate(() => document.querySelector('.karpenter-playground-embed').scrollIntoView({ block: 'center' }));
  const frame = await frameOf(page, 0);
  let from = await mark(page);
  await page.evaluate((yaml) => { window.KarpenterPlayground.embeds[0].load(yaml); }, SCALE_OUT);
  const other = await message(page, 0, 'kpg:loaded', from);
  assert(other.ok === true && Array.isArray(other.errors) && other.errors.length === 0, `another scenario loads: ${JSON.stringify(other)}`);
  await frame.waitForSelector('[data-lane="pool/platform"]');
  assert(await frame.locator('[data-lane="pool/hello-world"]').count() === 0, 'and replaces the first');

  from = await mark(page);
  // The error is on line 9 of the stream the host sent (line 4 of its second document).
  await page.evaluate(() => { window.KarpenterPlayground.embeds[0].load('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ok\n---\napiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: [broken\n'); });
  const bad = await message(page, 0, 'kpg:loaded', from);
  assert(bad.ok === false && bad.errors.length > 0 && typeof bad.errors[0].column === 'number'
    && typeof bad.errors[0].message === 'string', `broken YAML: ok=false with its errors: ${JSON.stringify(bad)}`);
  assert(bad.errors[0].line === 9 && bad.errors[0].document === 1, `the error's line is the stream's: ${JSON.stringify(bad.errors[0])}`);

  from = await mark(page);
  // Listeners through the API, as an author would write them.
  await page.evaluate(() => {
    const e = window.KarpenterPlayground.embeds[0];
    window.__api = { clocks: [], launched: [] };
    e.on('clock', (m) => window.__api.clocks.push(m));
    e.on('nodeLaunched', (ev) => window.__api.launched.push(ev));
    e.load(document.getElementById('hello-scenario').textContent);
  });
  const hello = await message(page, 0, 'kpg:loaded', from);
  assert(hello.ok === true && hello.documents === 3, `the article's scenario again: ${JSON.stringify(hello)}`);
  await frame.waitForSelector('[data-lane="pool/hello-world"]');

  const beforePlay = await mark(page);
  from = beforePlay;
  await page.click('#hello-controls button[data-do="play"]');
  await message(page, 0, 'kpg:clock', from, { playing: true });
  from = await mark(page);
  await page.click('#hello-controls button[data-do="seek"]');
  const seeked = await message(page, 0, 'kpg:clock', from, { at: 300000 });
  assert(typeof seeked.playing === 'boolean', `kpg:clock says whether it plays: ${JSON.stringify(seeked)}`);
  // The node launches about 3 s in: while playing, or on the way to 5m.
  const ev = (await message(page, 0, 'kpg:event', beforePlay, { event: { kind: 'nodeLaunched', nodePool: 'hello-world' } })).event;
  assert(typeof ev.at === 'number' && /^hello-world-/.test(ev.node) && /^t/.test(ev.instanceType)
    && ev.capacityType === 'on-demand' && /^us-east-1[a-f]$/.test(ev.zone), `nodeLaunched names its node, type, capacity and zone: ${JSON.stringify(ev)}`);
  // Playing on from 5m, then the pause.
  from = await mark(page);
  await page.click('#hello-controls button[data-do="play"]');
  await message(page, 0, 'kpg:clock', from, { playing: true });
  from = await mark(page);
  await page.click('#hello-controls button[data-do="pause"]');
  await message(page, 0, 'kpg:clock', from, { playing: false });
  const api = await page.evaluate(() => ({
    clocks: window.__api.clocks.length,
    launched: window.__api.launched.map((e) => e.nodePool),
    shown: document.getElementById('hello-clock').textContent,
    log: document.getElementById('hello-log').textContent,
  }));
  assert(api.clocks >= 3 && api.launched.includes('hello-world'), `on('clock') and on('nodeLaunched') were called: ${JSON.stringify(api)}`);
  assert(/paused$/.test(api.shown) && api.log.includes('launched hello-world-'), `the article's own script shows them: ${JSON.stringify(api)}`);

  from = await mark(page);
  await page.evaluate(() => { window.KarpenterPlayground.get(document.getElementById('hello-scenario')).seek(120000); });
  await message(page, 0, 'kpg:clock', from, { at: 120000, playing: false });
  from = await mark(page);
  await page.evaluate(() => { window.KarpenterPlayground.embeds[0].setSpeed(10).setLang('ko').setLang('en'); });
  const ready = await page.evaluate(() => within(window.KarpenterPlayground.embeds[0].ready));
  assert(ready.type === 'kpg:loaded' && ready.ok === true, `the ready promise resolved with the first kpg:loaded: ${JSON.stringify(ready)}`);
  const bad1 = await page.evaluate(() => { try { window.KarpenterPlayground.embeds[0].setSpeed(7); return 'accepted'; } catch (e) { return e.name; } });
  assert(bad1 === 'TypeError', `setSpeed(7) is refused: ${bad1}`);
  await page.screenshot({ path: path.join(artifacts, 'embed-04-api.png') });
});

await test('Space in the article scrolls it and starts no embed', async () => {
  await page.evaluate(() => { window.scrollTo(0, 0); if (document.activeElement) document.activeElement.blur(); });
  await page.waitForTimeout(300);
  const clocks = async () => Promise.all([0, 2].map(async (i) => (await frameOf(page, i)).evaluate(() => {
    const c = document.querySelector('.clock');
    return c ? c.textContent : null;
  })));
  const before = await clocks();
  const from = await mark(page);
  const y0 = await page.evaluate(() => window.scrollY);
  assert(await page.evaluate(() => document.activeElement === document.body), 'focus is on the article');
  await page.keyboard.press('Space');
  await page.waitForTimeout(1500);
  const y1 = await page.evaluate(() => window.scrollY);
  assert(y1 > y0, `Space scrolled the article: ${y0} -> ${y1}`);
  const started = await page.evaluate((from) => window.__kpg.slice(from).filter((r) => r.type === 'kpg:clock' && r.detail.playing), from);
  assert(started.length === 0, `no embed started playing: ${JSON.stringify(started)}`);
  const after = await clocks();
  assert(JSON.stringify(after) === JSON.stringify(before), `the paused embeds' clocks did not move: ${before} -> ${after}`);
});

await test('on the article (the playground\'s own origin), a sibling frame cannot impersonate an embed or command one', async () => {
  await page.evaluate(() => document.querySelector('.karpenter-playground-embed').scrollIntoView({ block: 'center' }));
  await strangers(page, await frameOf(page, 0));
  assert(await page.evaluate(() => window.__pwned) === undefined, 'nothing ran in the host');
});

await test('an API call on an embed far down queues, starts it, and runs after its scenario loads', async () => {
  const p = await open(desktop, ARTICLE);
  await p.waitForLoadState('load');
  const from = await mark(p);
  await p.evaluate(() => { window.KarpenterPlayground.embeds[2].seek('3m'); });
  const loaded = await message(p, 2, 'kpg:loaded', from);
  assert(loaded.ok === true && loaded.documents === 6, `the <pre>'s scenario loads first: ${JSON.stringify(loaded)}`);
  await message(p, 2, 'kpg:clock', from, { at: 180000 });
  const frames = await p.evaluate(() => [...document.querySelectorAll('.karpenter-playground-embed')].map((w) => !!w.querySelector('iframe')));
  assert(frames.join() === 'false,false,true', `only the embed the script used was started: ${frames}`);
  await p.close();
});

await test('at 320 px wide (iPhone SE) the embed and the article scroll only vertically', async () => {
  const phone = await browser.newContext({ viewport: { width: 320, height: 568 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'en-US' });
  const p = await open(phone, ARTICLE);
  await p.waitForLoadState('load');
  const { detail } = await scrollToEmbed(p, 1);
  assert(detail.ok, 'the limits lab loads on a phone');
  const frame = await frameOf(p, 1);
  await frame.waitForSelector('.summary');
  await fitsContent(p, 1);
  const article = await p.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert(article[0] <= 320, `no horizontal scroll in the article: ${article}`);
  const inner = await frame.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert(inner[0] <= inner[1], `no horizontal scroll inside the embed: ${inner}`);
  const width = await p.evaluate(() => document.querySelectorAll('.karpenter-playground-embed iframe')[0].getBoundingClientRect().width);
  assert(width <= 320, `the frame fits the screen: ${width}`);
  await p.screenshot({ path: path.join(artifacts, 'embed-05-phone.png') });
  await phone.close();
});

// A blog on another origin that embeds hostile YAML, with a sibling frame that tries to talk
// to the embed and to impersonate it.
const PAYLOAD = (flag) => `<img src=x onerror="window.__pwned='${flag}'">`;
const HOSTILE_YAML = `# comment ${PAYLOAD('comment')} <script>window.__pwned='comment-script'</script>
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: ${PAYLOAD('name')}
  labels:
    evil: '<script>window.__pwned="label"</script>'
spec:
  template:
    metadata:
      labels:
        team: '<svg onload="window.__pwned=1">'
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: kubernetes.io/arch
          operator: In
          values: ["amd64"]
`;
const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const blogRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'kpg-embed-blog-'));
fs.writeFileSync(path.join(blogRoot, 'hostile.html'), `<!doctype html>
<html lang="ko-KR"><head><meta charset="utf-8"><title>hostile</title>
<link rel="icon" href="data:,">
<script src="${url}embed.js" defer></script></head>
<body><h1>A post on another site</h1>
<div style="height:1500px"></div>
<pre class="karpenter-playground" data-view="manifests" data-playground="javascript:window.__pwned='playground'">${escapeHtml(HOSTILE_YAML)}</pre>
<div style="height:200px"></div>
</body></html>`);
fs.writeFileSync(path.join(blogRoot, 'elsewhere.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>elsewhere</title>
<link rel="icon" href="data:,">
<script src="${url}embed.js" defer></script></head>
<body><h1>An article on another site</h1>
<div style="height:2000px"></div>
<pre class="karpenter-playground" data-view="cluster">${escapeHtml(HELLO)}</pre>
</body></html>`);
// The article's first poster snippet (its drawing, then the <details> with the <pre>), once
// with data-live="click" and once with data-live="never".
const articleHtml = fs.readFileSync(path.join(dist, 'example-article.html'), 'utf8');
const firstPoster = /<svg [^>]*class="kpg-poster"[^]*?<\/details>/.exec(articleHtml)[0];
const withLive = (live) => firstPoster.replace('<pre class="karpenter-playground"', `<pre class="karpenter-playground" data-live="${live}"`);
fs.writeFileSync(path.join(blogRoot, 'posters.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>posters</title>
<link rel="icon" href="data:,">
<script src="${url}embed.js" defer></script></head>
<body><h1>Posters that wait</h1>
<div id="on-click">${withLive('click')}</div>
<div id="never">${withLive('never')}</div>
</body></html>`);
const blog = await serve(blogRoot, '/posts/');

await test('data-live="click" keeps the drawing until the reader asks; data-live="never" leaves a static figure', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 1600 }, locale: 'en-US' });
  const p = await open(ctx, blog.url + 'posters.html');
  await p.waitForLoadState('load');
  await p.waitForTimeout(1500); // both are in view: the observer would have started a "visible" one
  const before = await p.evaluate(() => ({
    embeds: window.KarpenterPlayground.embeds.length,
    frames: document.querySelectorAll('iframe').length,
    cover: !!document.querySelector('#on-click > .karpenter-playground-embed[data-live=click] > .kpg-cover > svg.kpg-poster'),
    never: [...document.querySelector('#never').children].map((e) => e.localName + '.' + e.getAttribute('class')),
  }));
  assert(before.embeds === 1 && before.frames === 0 && before.cover, `one embed, its drawing, no frame while in view: ${JSON.stringify(before)}`);
  assert(before.never.join() === 'svg.kpg-poster,details.karpenter-playground-manifests', `the static figure is left as written: ${before.never}`);
  await p.screenshot({ path: path.join(artifacts, 'embed-05-posters-waiting.png') });
  const from = await mark(p);
  await p.locator('#on-click .kpg-run').focus();
  await p.keyboard.press('Enter');
  const loading = await p.evaluate(() => ({
    cover: !!document.querySelector('#on-click .kpg-cover svg'),
    behind: document.querySelector('#on-click iframe').className,
  }));
  assert(loading.cover && loading.behind === 'kpg-behind', `the drawing stays in front while the playground loads: ${JSON.stringify(loading)}`);
  const detail = await message(p, 0, 'kpg:loaded', from);
  assert(detail.ok === true && detail.documents === 3, `the playground took over: ${JSON.stringify(detail)}`);
  const frame = await frameOf(p, 0);
  await frame.waitForSelector('[data-lane="pool/hello-world"]', { timeout: slow(10000) });
  assert(await p.locator('#on-click .kpg-cover').count() === 0, 'and the drawing is gone');
  assert(await p.locator('#never svg.kpg-poster').count() === 1 && await p.locator('#never iframe').count() === 0, 'the static figure stays');
  await ctx.close();
});

await test('on another origin (the usual blog), an embed loads when scrolled to and fits its content', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const p = await open(ctx, blog.url + 'elsewhere.html');
  await p.waitForLoadState('load');
  await p.waitForTimeout(500);
  assert(await p.locator('iframe').count() === 0, 'no frame before scrolling');
  const { ms, early, detail } = await scrollToEmbed(p, 0);
  assert(!early, 'the embed loaded only when scrolled to');
  figure('viewport to first cluster render, an article on another origin (cold: downloads the page and its wasm)', `${ms} ms`);
  assert(detail.ok === true && detail.documents === 3, `loaded: ${JSON.stringify(detail)}`);
  const frame = await frameOf(p, 0);
  await frame.waitForSelector('[data-lane="pool/hello-world"]', { timeout: slow(10000) });
  await fitsContent(p, 0);
  await ctx.close();
});

await test('an embed on the playground\'s own origin never touches the learner\'s saved work', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  // The learner's own session on the full page, with an edit and a terminal command.
  const full = await open(ctx, url);
  await full.waitForSelector('.summary');
  await fillEditor(full, '# the learner\'s own edit\n' + await editorText(full));
  await full.click('#tab-terminal');
  await full.locator('.terminal input').fill('kubectl get nodes');
  await full.locator('.terminal input').press('Enter');
  await full.waitForTimeout(300);
  const storage = () => full.evaluate(() => JSON.stringify(Object.entries(localStorage).sort()));
  const before = await storage();
  assert(before.includes('the learner'), 'the full page saved its session');
  // The same origin's article: load, edit, play, and use the terminal inside an embed.
  const p = await open(ctx, ARTICLE);
  await scrollToEmbed(p, 0);
  const frame = await frameOf(p, 0);
  await fillEditor(frame, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: typed-in-the-embed\nspec:\n  containers:\n  - name: c\n    image: nginx\n');
  await p.evaluate(() => { const e = window.KarpenterPlayground.embeds[0]; e.play(); e.seek('2m'); });
  // The limits lab's embed offers every part, the terminal (whose history the full page
  // keeps in storage) included.
  await scrollToEmbed(p, 1);
  const second = await frameOf(p, 1);
  await second.click('.embed-tab[data-view="terminal"]');
  await second.locator('.terminal input').fill('kubectl get pods');
  await second.locator('.terminal input').press('Enter');
  await second.waitForSelector('.terminal .entry .out');
  await p.waitForTimeout(500);
  assert(await storage() === before, 'local storage is exactly as the full page left it');
  assert(await frame.evaluate(() => localStorage.length) === JSON.parse(before).length, 'the embed wrote no key of its own');
  await ctx.close();
});

await test('on another origin, a script can drive an embed the reader has not scrolled to yet', async () => {
  // Browsers give a cross-origin frame outside the viewport no animation frames: the embed
  // must answer from timers and message handlers, not from requestAnimationFrame.
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const p = await open(ctx, blog.url + 'elsewhere.html');
  await p.waitForLoadState('load');
  const from = await mark(p);
  await p.evaluate(() => window.KarpenterPlayground.embeds[0].seek('3m'));
  const clock = await message(p, 0, 'kpg:clock', from, { at: 180000 }, 10000);
  assert(clock.playing === false, `the seek arrives while the embed is far below: ${JSON.stringify(clock)}`);
  assert(await p.evaluate(() => window.scrollY) === 0, 'and the article did not scroll');
  await ctx.close();
});

await test('hostile YAML shows as text, runs nowhere, and stray kpg: messages are ignored both ways', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'ko-KR' });
  const p = await open(ctx, blog.url + 'hostile.html');
  await p.waitForLoadState('load');
  const poster = await p.evaluate(() => ({
    code: document.querySelector('.kpg-code').textContent,
    title: document.querySelector('.kpg-title').textContent,
    run: document.querySelector('.kpg-run').textContent,
    markup: document.querySelector('.karpenter-playground-embed').querySelectorAll('img, script, svg').length,
  }));
  assert(poster.code.includes('<img src=x onerror=') && poster.code.includes('<script>'), `the poster shows the markup as text: ${poster.code}`);
  assert(poster.markup === 0, 'and makes no element of it');
  assert(poster.run === '▶ Karpenter 플레이그라운드에서 실행', `a Korean page gets the Korean button: ${poster.run}`);
  await p.click('.kpg-run');
  const loaded = await p.evaluate(() => within(window.KarpenterPlayground.embeds[0].ready));
  const src = await p.locator('iframe').first().getAttribute('src');
  assert(src === url + 'index.html?embed&scenario=message&view=manifests', `the javascript: playground is refused for the real one: ${src}`);
  const frame = await frameOf(p, 0);
  await frame.waitForSelector('textarea', { state: 'attached', timeout: slow(10000) });
  await p.waitForTimeout(1000); // time for an injected <img> to fail and fire onerror
  assert(await p.evaluate(() => window.__pwned) === undefined, 'nothing ran in the host');
  const inside = await frame.evaluate(() => ({
    pwned: window.__pwned,
    imgs: document.querySelectorAll('img[src="x"]').length,
    literal: document.body.textContent.includes('<img src=x onerror=')
      || [...document.querySelectorAll('textarea')].some((t) => t.value.includes('<img src=x onerror=')),
  }));
  assert(inside.pwned === undefined && inside.imgs === 0, `nothing ran in the embed: ${JSON.stringify(inside)}`);
  assert(inside.literal, 'the embed shows the YAML literally');
  assert(loaded.ok === false ? loaded.errors.length > 0 : true, `kpg:loaded carries the reader's findings: ${JSON.stringify(loaded)}`);

  await strangers(p, frame);
  assert(await p.evaluate(() => window.__pwned) === undefined, 'still nothing ran in the host');

  // Later content: scan() converts a new <pre> once, and never twice.
  const counts = await p.evaluate(() => {
    const pre = document.createElement('pre');
    pre.className = 'karpenter-playground';
    pre.textContent = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: later\n';
    document.body.append(pre);
    const first = window.KarpenterPlayground.scan().length;
    const again = window.KarpenterPlayground.scan().length + window.KarpenterPlayground.scan(document.body).length;
    return { first, again, embeds: window.KarpenterPlayground.embeds.length, wrappers: document.querySelectorAll('.karpenter-playground-embed').length,
      same: window.KarpenterPlayground.get(pre) === window.KarpenterPlayground.embeds[1] };
  });
  assert(counts.first === 1 && counts.again === 0 && counts.embeds === 2 && counts.wrappers === 2 && counts.same, `scan: ${JSON.stringify(counts)}`);
  await p.screenshot({ path: path.join(artifacts, 'embed-06-hostile.png'), fullPage: true });
  await ctx.close();
});

// A guided lesson written outside this repository, in English only, on the blog's own site:
// its lab file beside it, its exercise the one a shipped lesson sets (copied, goals and edits,
// from lessons/labels-taints), and text that tries to be markup.
const shipped = fs.readFileSync(new URL('../../lessons/labels-taints/lesson.yaml', import.meta.url), 'utf8');
const exercise = /\n(    exercise:\n[^]*?)\n  - id:/.exec(shipped.slice(shipped.indexOf('id: limits-as-a-cost-guard')))[1];
fs.mkdirSync(path.join(blogRoot, 'lessons', 'limits', 'labs'), { recursive: true });
fs.copyFileSync(new URL('../../tests/labs/seed002-limits.yaml', import.meta.url),
  path.join(blogRoot, 'lessons', 'limits', 'labs', 'limits.yaml'));
fs.writeFileSync(path.join(blogRoot, 'lessons', 'limits', 'lesson.yaml'), `id: limits-on-a-blog
title: A limit, on a blog
lab: {file: labs/limits.yaml, name: The limit}
steps:
  - id: one-node-each
    title: Eight replicas, one node each
    text: |
      Press **Play**, then go on to [the task](#make-them-run).

      Hi ${PAYLOAD('lesson')} and [a trap](javascript:window.__pwned='link') and <script>window.__pwned='script'</script>.
  - id: make-them-run
    title: Make them run
    text: Two replicas wait for a node the limit forbids.
${exercise}
`);
fs.writeFileSync(path.join(blogRoot, 'lesson.html'), `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><title>a lesson</title>
<link rel="icon" href="data:,">
<script src="${url}embed.js" defer></script></head>
<body><h1>A lesson on another site</h1>
<div style="height:1500px"></div>
<pre class="karpenter-playground" data-lesson="lessons/limits/lesson.yaml" data-view="cluster,manifests" data-height="900">A guided lesson</pre>
<div style="height:1500px"></div>
<pre class="karpenter-playground" data-lesson>id: Broken!
title: [unclosed
</pre>
</body></html>`);

await test('a lesson file from another site, English only, plays in its embed and checks its exercise; its text stays text', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 1000 }, locale: 'ko-KR' });
  const p = await open(ctx, blog.url + 'lesson.html');
  await p.waitForLoadState('load');
  const { detail } = await scrollToEmbed(p, 0);
  assert(detail.ok === true && detail.documents > 0, `the lesson's lab opened: ${JSON.stringify(detail)}`);
  const frame = await frameOf(p, 0);
  const card = frame.locator('.embed-lesson .lesson');
  await card.waitFor({ timeout: slow(10000) });
  assert(await frame.locator('#lesson-title').innerText() === 'Eight replicas, one node each', 'the lesson\'s first step');
  assert(await frame.locator('.lesson-untranslated').isVisible(), 'a Korean reader is told the lesson is in English');
  const body = frame.locator('#lesson-body');
  assert(await body.locator('strong').innerText() === 'Play', 'its Markdown is elements');
  const text = await body.innerText();
  assert(text.includes('<img src=x onerror=') && text.includes('<script>'), `the markup is text: ${text}`);
  assert(await body.locator('img, script').count() === 0, 'and no element');
  assert(await body.locator('a').count() === 1, 'the javascript: link is its text, not a link');
  // The step link, by keyboard.
  await body.locator('a.step-link').focus();
  await p.keyboard.press('Enter');
  await frame.waitForFunction(() => document.querySelector('#lesson-title').textContent === 'Make them run');
  const task = frame.locator('.exercise');
  assert(await task.getAttribute('data-solved') === 'false', 'the task is open');
  // At rest as written: two replicas still pending, so the task stays open.
  const host = async (script) => p.evaluate(script);
  await host(() => window.KarpenterPlayground.embeds[0].seek('30m'));
  await frame.waitForFunction(() => document.querySelector('.summary').dataset.at === '1800000', null, { timeout: slow(20000) });
  assert(await task.getAttribute('data-solved') === 'false', 'the lab as written does not meet the goals');
  // The solution, by keyboard: shown, then applied; then the cluster at 30:00 meets the goals.
  await applySolutionByKeyboard(p, frame);
  await p.screenshot({ path: path.join(artifacts, 'embed-07-lesson.png') });
  // The second lesson does not read: the embed says where, and nothing ran anywhere.
  const broken = await scrollToEmbed(p, 1);
  assert(broken.detail.ok === false && broken.detail.errors.some((e) => /^lesson\.yaml:\d+:\d+: error\[lesson-/.test(e.message)),
    `a lesson that does not read is answered with located problems: ${JSON.stringify(broken.detail)}`);
  const second = await frameOf(p, 1);
  await second.waitForSelector('.notice', { timeout: slow(10000) });
  assert((await second.locator('.notice').innerText()).includes('lesson.yaml:'), 'and the embed shows them');
  assert(await p.evaluate(() => window.__pwned) === undefined, 'nothing ran in the host');
  assert(await frame.evaluate(() => window.__pwned) === undefined, 'nothing ran in the embed');
  await ctx.close();
});

await test('the example lesson ships with its article: a Korean reader reads its translation, solves it, and its link carries it whole to the full page, which keeps it on reload', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 1000 }, locale: 'ko-KR' });
  const p = await open(ctx, url + 'example-lesson.html');
  await p.waitForLoadState('load');
  const { detail } = await scrollToEmbed(p, 0);
  assert(detail.ok === true && detail.documents === 3, `the lesson's lab opened: ${JSON.stringify(detail)}`);
  const frame = await frameOf(p, 0);
  await frame.locator('.embed-lesson .lesson').waitFor({ timeout: slow(10000) });
  assert(await frame.locator('#lesson-title').innerText() === '온디맨드 레플리카 여섯 개', 'the Korean file beside the lesson is read');
  assert(await frame.locator('.lesson-untranslated').count() === 0, 'a translated lesson has no fallback notice');
  // The first step's playTo puts the clock at 3:00.
  await frame.waitForFunction(() => document.querySelector('.summary')?.dataset.at === '180000', null, { timeout: slow(20000) });
  await frame.locator('.lesson-nav button.primary').focus();
  await p.keyboard.press('Enter');
  await frame.waitForFunction(() => document.querySelector('#lesson-title').textContent === '스팟 허용하기');
  const host = async (script) => p.evaluate(script);
  await host(() => window.KarpenterPlayground.embeds[0].seek('30m'));
  // At rest since 3:00: the clock moves, the cluster (and its snapshot's time) does not.
  await frame.waitForFunction(() => document.querySelector('output.clock')?.dataset.ms === '1800000', null, { timeout: slow(20000) });
  const task = frame.locator('.exercise');
  assert(await task.getAttribute('data-solved') === 'false', 'on demand, the cluster costs too much');
  await applySolutionByKeyboard(p, frame);

  // "Open in Karpenter Playground" carries the lesson, the step, the edit and the instant.
  const openFull = frame.locator('a.open-full');
  await openFull.focus();
  const link = await openFull.getAttribute('href');
  assert(/#kpg1\.[A-Za-z0-9_-]+$/.test(link), `a share link: ${link.slice(0, 80)}`);
  const reader = [];
  const full = await ctx.newPage();
  full.on('request', (r) => { if (/kpg-lessons/.test(r.url())) reader.push(r.url()); });
  full.on('pageerror', (e) => errors.push(`full page: ${e}`));
  await full.goto(link);
  await live(full);
  await full.waitForFunction(() => document.querySelector('#lesson-title')?.textContent === '스팟 허용하기', null, { timeout: slow(20000) });
  assert(await full.locator('.lesson-picker select').inputValue() === 'what-spot-saves', 'the lesson is the page\'s to pick');
  assert((await full.locator('.step-count').innerText()).startsWith('2 '), 'at the sharer\'s step');
  await full.waitForFunction(() => document.querySelector('.exercise')?.dataset.solved === 'true', null, { timeout: slow(20000) });
  assert(reader.length > 0, 'the link\'s lesson was read by the lesson reader');
  await full.screenshot({ path: path.join(artifacts, 'embed-08-lesson-carried.png') });
  // A reload reopens it from the saved session: no reader, same lesson, same step.
  reader.length = 0;
  await full.reload();
  await live(full);
  await full.waitForFunction(() => document.querySelector('#lesson-title')?.textContent === '스팟 허용하기', null, { timeout: slow(20000) });
  assert(await full.locator('.lesson-picker select').inputValue() === 'what-spot-saves', 'still the lesson after a reload');
  assert(reader.length === 0, `a reload reads nothing again: ${reader.join(', ')}`);
  await ctx.close();
});

await test('no errors in the console, host pages and frames', async () => {
  assert(errors.length === 0, errors.join('\n'));
});

await browser.close();
server.close();
blog.server.close();
fs.rmSync(blogRoot, { recursive: true, force: true });
console.log(figures.map((f) => `figure: ${f}`).join('\n'));
finish();
