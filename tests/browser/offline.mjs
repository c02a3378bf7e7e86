// Browser tests of the page kept offline (web/offline/: the service worker dist/sw.js, its
// registration, the manifest) in headless Chromium, the page served under a sub-path as a
// static host would.
//
//   node tests/browser/offline.mjs [dist] [artifacts]
//
// Two builds: the one given, and its next build: a copy with a changed index.html, stamped
// anew by web/offline/stamp.mjs as trunk's post-build hook stamps a build. One server answers
// for both (the test says which build the host has) and can go away altogether: offline, no
// request reaches it, so what the page shows came from the service worker's cache.
//
// Prints the bytes a first visit keeps, "N passed, M failed", and exits non-zero on any
// failure. Screenshots go to the artifacts folder.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serve } from './server.mjs';
import { createRequire } from 'node:module';
import { assert, CHROMIUM_ARGS, finish, firstEmbedFrame, launch, live, seekTo, slow, stepUntil, test } from './harness.mjs';

const { chromium } = createRequire(import.meta.url)('playwright-core');

const dist = path.resolve(process.argv[2] || 'dist');
const artifacts = path.resolve(process.argv[3] || 'target/browser-artifacts');
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
fs.mkdirSync(artifacts, { recursive: true });

// The next build: index.html changed (only it: the page's wasm, and so trunk's kpg-web hash,
// stay the same), stamped as the build does.
const nextDist = fs.mkdtempSync(path.join(os.tmpdir(), 'kpg-next-build-'));
fs.cpSync(dist, nextDist, { recursive: true });
const nextIndex = path.join(nextDist, 'index.html');
fs.writeFileSync(nextIndex, fs.readFileSync(nextIndex, 'utf8').replace('</body>', '<!-- the next build -->\n</body>'));
execFileSync('node', [path.join(repo, 'web/offline/stamp.mjs'), nextDist], { stdio: 'ignore' });
// Newer than any file of the first build, as a deploy's files are (the host's Last-Modified).
const later = new Date(Date.now() + 60000);
for (const f of fs.readdirSync(nextDist, { recursive: true })) fs.utimesSync(path.join(nextDist, f), later, later);

// A host halfway through deploying the next build: the first build's files, and the next
// one's index.html.
const mixedDist = fs.mkdtempSync(path.join(os.tmpdir(), 'kpg-mixed-build-'));
fs.cpSync(dist, mixedDist, { recursive: true });
fs.copyFileSync(nextIndex, path.join(mixedDist, 'index.html'));

const buildOf = (dir) => /<meta name="kpg-build" content="([0-9a-f]+)"/.exec(fs.readFileSync(path.join(dir, 'index.html'), 'utf8'))[1];
const FIRST = buildOf(dist);
const NEXT = buildOf(nextDist);
assert(FIRST !== NEXT, 'the next build has an id of its own');

// The playground under a sub-path, and a second copy of it under another sub-path of the
// same host.
const PREFIX = '/team/tools/karpenter/';
const OTHER = '/elsewhere/playground/';
const hosts = {
  first: await serve(dist, PREFIX),
  next: await serve(nextDist, PREFIX),
  mixed: await serve(mixedDist, PREFIX),
  other: await serve(dist, OTHER),
};
for (const h of Object.values(hosts)) h.server.close();
const host = { build: 'first', offline: false, seen: [] };
const front = http.createServer((req, res) => {
  const pathname = new URL(req.url, 'http://x').pathname;
  host.seen.push(pathname);
  if (host.offline) { req.socket.destroy(); return; }
  // A page of this origin outside both playgrounds: it asks the registrations without being
  // a page either worker answers (which would hold a new build back).
  if (pathname === '/probe') { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>probe</title>'); return; }
  const h = pathname.startsWith(OTHER) ? hosts.other : hosts[host.build];
  h.server.emit('request', req, res);
});
await new Promise((resolve) => front.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${front.address().port}`;
const url = origin + PREFIX;
const otherUrl = origin + OTHER;

const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
const errors = [];
async function open(where) {
  const p = await context.newPage();
  p.on('pageerror', (e) => errors.push(`${where}: ${e}`));
  if (where) await p.goto(where);
  return p;
}
const shot = (p, name) => p.screenshot({ path: path.join(artifacts, `offline-${name}.png`) });

/**
 * Asks the page `fn(arg)` (which may be async: waitForFunction would take its promise for a
 * yes) until it says yes; throws saying `what` after a generous time.
 */
async function until(p, fn, arg, what) {
  const deadline = Date.now() + slow(60000);
  while (!(await p.evaluate(fn, arg))) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await p.waitForTimeout(200);
  }
}

/** Waits until the worker at `scope` is active with no other build installing or waiting. */
function settledWorker(p, scope) {
  return until(p, async (scope) => {
    const r = await navigator.serviceWorker.getRegistration(scope);
    return !!r && r.scope === scope && !r.installing && !r.waiting && r.active?.state === 'activated';
  }, scope, `the worker at ${scope} is active alone`);
}

/** The caches of this origin: name → { url → body bytes }. */
function cachesOf(p) {
  return p.evaluate(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = {};
      for (const request of await cache.keys()) {
        out[name][request.url] = (await (await cache.match(request)).arrayBuffer()).byteLength;
      }
    }
    return out;
  });
}

const metaBuild = (p) => p.evaluate(() => document.querySelector('meta[name=kpg-build]')?.content);
const noticeText = (p) => p.evaluate(() => document.querySelector('.notice .notice-text')?.textContent ?? null);

/** Every file of a build but the worker itself and the book, as the addresses it is served at. */
const buildFiles = (dir, base) => fs.readdirSync(dir, { recursive: true })
  .filter((f) => fs.statSync(path.join(dir, f)).isFile() && f !== 'sw.js' && !f.startsWith(`docs${path.sep}`))
  .map((f) => base + f.split(path.sep).join('/')).sort();

let page;

await test('a first visit keeps the whole build, in a cache named by its sub-path', async () => {
  // The install fetches every file of the build: it waits until the engine has answered the
  // page's first request, so that a phone's bandwidth goes to the page's own wasm first.
  await context.addInitScript(() => {
    // The page only: in an embed's frame, this wrapper, put in before the frame's own
    // scripts, left the frame without its controller (seen with Chromium 156).
    if (window !== window.top) return;
    const register = navigator.serviceWorker?.register;
    if (!register) return;
    navigator.serviceWorker.register = function (...args) {
      window.__kpgRegisteredAt = performance.now();
      return register.apply(this, args);
    };
  });
  page = await open(url);
  await live(page);
  await settledWorker(page, url);
  const [registeredAt, engineAnswered] = await page.evaluate(() => {
    const engine = performance.getEntriesByName('kpg-engine')[0];
    return [window.__kpgRegisteredAt, engine && engine.startTime + engine.duration];
  });
  assert(registeredAt >= engineAnswered,
    `the worker is registered after the engine's first answer (${engineAnswered} ms), not at ${registeredAt} ms`);
  const kept = await cachesOf(page);
  const name = `kpg-build ${url} ${FIRST}`;
  assert(JSON.stringify(Object.keys(kept)) === JSON.stringify([name]), `one cache, this build's: ${Object.keys(kept)}`);
  const urls = Object.keys(kept[name]).sort();
  assert(JSON.stringify(urls) === JSON.stringify(buildFiles(dist, url)),
    `it holds every file of dist/ under ${url}: ${urls.length} vs ${buildFiles(dist, url).length}`);
  const bytes = Object.values(kept[name]).reduce((a, b) => a + b, 0);
  console.log(`     a first visit keeps ${urls.length} files, ${bytes} B (the sum of the cached responses)`);
  // The install asks the host again for what the page loaded (no-cache): a 304, not the file
  // twice. Measured: the extra bytes are exactly sw.js and index.html (which the page loaded
  // as its folder's address, another entry of the HTTP cache).
  const sent = [...hosts.first.server.bytes.values()].reduce((a, b) => a + b, 0);
  console.log(`     the host sent ${sent} B for the whole first visit, the page's loads and the install's`);
  assert(sent < bytes * 1.05, `no file was sent twice: ${sent} B sent for ${bytes} B kept`);

});

await test('the page is installable: Chromium finds its manifest, icons and worker good enough', async () => {
  // Playwright's contexts are incognito profiles, where Chromium installs nothing (and checks
  // nothing else): this one is a profile of its own, on disk.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kpg-profile-'));
  const own = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.KPG_CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS, locale: 'en-US',
  });
  try {
    const p = own.pages()[0] || await own.newPage();
    await p.goto(url);
    await live(p);
    await settledWorker(p, url);
    const cdp = await own.newCDPSession(p);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert(installabilityErrors.length === 0, `Chromium would install it: ${JSON.stringify(installabilityErrors)}`);
    const { url: manifestUrl, errors } = await cdp.send('Page.getAppManifest');
    assert(manifestUrl === url + 'manifest.json' && errors.length === 0, `its manifest: ${manifestUrl} ${JSON.stringify(errors)}`);
    // Its PNG icons are the sizes they claim, 192 and 512 px among them (what Chromium's
    // criteria name; a Chromium may take less).
    const icons = await p.evaluate(async () => {
      const manifest = await (await fetch('manifest.json')).json();
      return Promise.all(manifest.icons.filter((i) => i.type === 'image/png').map(async (i) => {
        const png = new DataView(await (await fetch(i.src)).arrayBuffer());
        return { sizes: i.sizes, drawn: `${png.getUint32(16)}x${png.getUint32(20)}` };
      }));
    });
    assert(icons.every((i) => i.sizes === i.drawn), `each icon is its size: ${JSON.stringify(icons)}`);
    assert(['192x192', '512x512'].every((size) => icons.some((i) => i.sizes === size)), `192 and 512 px: ${JSON.stringify(icons)}`);
  } finally {
    await own.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

await test('offline, the page opens from the cache, its engine runs, a lesson plays and its share link opens', async () => {
  host.offline = true;
  host.seen = [];
  await context.setOffline(true);
  const fromWorker = [];
  const listen = (r) => { if (r.url().endsWith('.wasm')) fromWorker.push([r.url().split('/').pop(), r.fromServiceWorker()]); };
  context.on('response', listen);
  await page.reload();
  await live(page);
  context.off('response', listen);
  assert(await metaBuild(page) === FIRST, 'the build it keeps');
  const wasm = fromWorker.filter(([f]) => /^kpg-web-[0-9a-f]+_bg\.wasm$/.test(f));
  assert(wasm.length > 0 && wasm.every(([, sw]) => sw), `the page's wasm came from the service worker: ${JSON.stringify(fromWorker)}`);
  // The engine runs in its worker (kpg-worker_bg.wasm): the lesson's NodeClaim launches and
  // its node becomes ready, stepped instant by instant.
  await page.waitForSelector('[data-lane="pool/hello-world"]', { timeout: slow(20000) });
  await stepUntil(page, () => document.querySelector('[data-lane="pool/hello-world"] .node.ready') !== null);
  // A share link of this instant opens from the same copy: its fragment is the page's to
  // read, never the host's.
  await page.click('.share-btn');
  const link = await page.locator('.share-link').inputValue();
  await page.keyboard.press('Escape');
  const linked = await open(link);
  await live(linked);
  await linked.waitForSelector('.linked-banner', { timeout: slow(10000) });
  await linked.waitForSelector('[data-lane="pool/hello-world"] .node.ready', { timeout: slow(20000) });
  assert(await metaBuild(linked) === FIRST, 'the link opened the kept build');
  await linked.close();
  await seekTo(page, 0);
  assert(await page.locator('[data-lane="pool/hello-world"] .node').count() === 0, 'back at 0:00 the node is not launched yet');
  await shot(page, 'offline-lesson');
  const asked = host.seen.filter((p) => !p.endsWith('/sw.js'));
  assert(asked.length === 0, `nothing but the worker's update check went to the host: ${asked.join(' ')}`);
});

await test('offline, an embed on the same host opens from the same cache', async () => {
  const article = await open(url + 'example-article.html');
  const frame = await firstEmbedFrame(article);
  await frame.waitForSelector('[data-lane="pool/hello-world"]', { timeout: slow(30000) });
  assert(await frame.evaluate(() => navigator.serviceWorker.controller !== null), 'the worker answers the embed');
  assert(await frame.evaluate(() => document.querySelector('meta[name=kpg-build]').content) === FIRST, 'with the kept build');
  const caches = await cachesOf(article);
  assert(Object.keys(caches).length === 1, `the embed kept nothing of its own: ${Object.keys(caches)}`);
  await shot(article, 'offline-embed');
  await article.close();
  host.offline = false;
  await context.setOffline(false);
});

await test('a host halfway through a deploy gets no worker: a build is kept whole or not at all', async () => {
  host.build = 'mixed';
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  try {
    const p = await ctx.newPage();
    await p.goto(url);
    await live(p);
    // The worker this host serves (the first build's) finds index.html is not the one it
    // lists, and its install fails.
    const state = await p.evaluate(async () => {
      const r = await navigator.serviceWorker.register('sw.js');
      const w = r.installing || r.waiting || r.active;
      if (['activated', 'redundant'].includes(w.state)) return w.state;
      return new Promise((resolve) => {
        w.addEventListener('statechange', () => {
          if (['activated', 'redundant'].includes(w.state)) resolve(w.state);
        });
      });
    });
    assert(state === 'redundant', `the worker was not installed: ${state}`);
    assert((await p.evaluate(() => caches.keys())).length === 0, 'nothing was cached');
    // The deploy done, the next visit keeps the next build.
    host.build = 'next';
    await p.reload();
    await live(p);
    await settledWorker(p, url);
    assert(JSON.stringify(Object.keys(await cachesOf(p))) === JSON.stringify([`kpg-build ${url} ${NEXT}`]), 'then the whole next build');
  } finally {
    await ctx.close();
    host.build = 'first';
  }
});

await test('a new build is fetched on the next visit and opened on the one after, which says so', async () => {
  host.build = 'next';
  // The host has the next build; this visit still opens the kept one, and the worker fetches
  // the next beside it.
  await page.reload();
  await live(page);
  assert(await metaBuild(page) === FIRST, 'a visit opens the build it kept');
  assert(await noticeText(page) === null, 'and says nothing');
  await until(page, async (scope) => {
    const r = await navigator.serviceWorker.getRegistration(scope);
    return r?.waiting?.state === 'installed';
  }, url, 'the next build is installed, waiting');
  const both = Object.keys(await cachesOf(page)).sort();
  assert(JSON.stringify(both) === JSON.stringify([`kpg-build ${url} ${FIRST}`, `kpg-build ${url} ${NEXT}`].sort()),
    `the next build is kept beside the first: ${both}`);
  await page.close();
  // No page of the first build is open: the next takes over.
  const probe = await open(origin + '/probe');
  await settledWorker(probe, url);
  page = await open(url);
  await live(page);
  assert(await metaBuild(page) === NEXT, 'the next visit opens the new build');
  await page.waitForSelector('.notice', { timeout: slow(10000) });
  const said = await noticeText(page);
  assert(said === 'A new version of the playground was loaded.', `it says so: ${said}`);
  await shot(page, 'new-build');
  const left = await cachesOf(page);
  assert(JSON.stringify(Object.keys(left)) === JSON.stringify([`kpg-build ${url} ${NEXT}`]), `the first build's cache is gone: ${Object.keys(left)}`);
  assert(JSON.stringify(Object.keys(left[`kpg-build ${url} ${NEXT}`]).sort()) === JSON.stringify(buildFiles(nextDist, url)), 'the new one is whole');
  await page.reload();
  await live(page);
  assert(await noticeText(page) === null, 'the visit after that says nothing');
  await probe.close();
});

await test('a second playground on the same host keeps its own build beside the first', async () => {
  const other = await open(otherUrl);
  await live(other);
  await settledWorker(other, otherUrl);
  assert(await metaBuild(other) === FIRST, 'it has the first build');
  const names = Object.keys(await cachesOf(other)).sort();
  assert(JSON.stringify(names) === JSON.stringify([`kpg-build ${otherUrl} ${FIRST}`, `kpg-build ${url} ${NEXT}`].sort()),
    `each sub-path keeps its own: ${names}`);
  await other.close();
});

await test('no uncaught errors', async () => {
  assert(errors.length === 0, errors.join('\n'));
});

await browser.close();
front.close();
for (const dir of [nextDist, mixedDist]) fs.rmSync(dir, { recursive: true, force: true });
finish();
