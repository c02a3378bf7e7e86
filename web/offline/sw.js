// The playground's service worker: it keeps one build of the page, every file of dist/, so the
// page opens and runs offline, and an installed page starts without the network.
//
// `BUILD` is not defined here: web/offline/stamp.mjs writes it above this text when it makes
// dist/sw.js at build time: { id, files: [[path, integrity], ...] }, the build's id (a digest
// of every file of the build and of this text) and each file's path, relative to this file,
// with its Subresource Integrity hash.
//
// One build at a time, never two mixed. A page is answered from the cache of the worker that
// was active when it opened, which holds one build, whole. A new build comes with a new
// sw.js (its list differs): the browser installs it beside the old one while the page runs
// (the install fetches and checks every file; one missing or different file fails it and
// nothing changes), and it takes over once no page of the old build is open, so the next
// visit opens the new build. Its activation deletes the old build's cache. The page says
// that a new version was loaded (web/src/shell/offline.rs).
//
// Everything is relative to where this file is served: the scope is its folder, and the
// caches are named by that folder, so two playgrounds on one host (two sub-paths) keep their
// own builds. No dependency.
'use strict';

/** This file's folder: the page's address and the root of every cached file. */
const SCOPE = new URL('./', self.location.href).href;
/** The caches of this playground's builds, and the one this worker answers from. */
const PREFIX = 'kpg-build ' + SCOPE + ' ';
const CACHE = PREFIX + BUILD.id;
const INDEX = new URL('index.html', SCOPE).href;

self.addEventListener('install', (event) => {
  event.waitUntil(keep());
});

/** Fetches the whole build, checks each file against its hash, and only then caches it. */
async function keep() {
  const fetched = await Promise.all(BUILD.files.map(async ([path, integrity]) => {
    const url = new URL(path, SCOPE).href;
    // `no-cache`: the browser's HTTP cache may answer only after the host confirms the file
    // (a file without a hash in its name, such as index.html, may have changed).
    const response = await fetch(url, { cache: 'no-cache', integrity });
    if (!response.ok) throw new Error(`sw.js: ${path} answered ${response.status}`);
    // A host that redirects (index.html to its folder) gives a response a page may not be
    // answered with: keep its content under the file's own address.
    const kept = response.redirected
      ? new Response(await response.blob(), { status: 200, headers: response.headers })
      : response;
    return [url, kept];
  }));
  // What an earlier, failed install of this build left.
  await caches.delete(CACHE);
  const cache = await caches.open(CACHE);
  await Promise.all(fetched.map(([url, response]) => cache.put(url, response)));
}

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith(PREFIX) && name !== CACHE)
    .map((name) => caches.delete(name)))));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(SCOPE)) return;
  event.respondWith(answer(request));
});

/**
 * The build's own copy of a file, else the network. A page (the playground, an embed, a
 * share link) is its file whatever its query: the query and the fragment are read by the
 * page, not the host, so a link is never answered by another build.
 */
async function answer(request) {
  const cache = await caches.open(CACHE);
  let hit;
  if (request.mode === 'navigate') {
    const url = new URL(request.url);
    url.search = '';
    url.hash = '';
    hit = await cache.match(url.href === SCOPE ? INDEX : url.href);
  } else {
    hit = await cache.match(request);
  }
  return hit || fetch(request);
}
