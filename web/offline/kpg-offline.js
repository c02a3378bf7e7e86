// Registers the page's service worker (dist/sw.js, made by web/offline/stamp.mjs and named by
// `<meta name="kpg-build" data-worker>`), which keeps this build for offline use, and asks
// for a new build on every visit it answered: the browser installs one beside the old and
// the next visit opens it. Copied into dist/ as it is; no dependency.
(function () {
  if (!('serviceWorker' in navigator)) return;
  // An embed registers nothing: an article's reader should not download the whole build.
  // (If a worker already keeps this playground, on this site, it answers the embed too.)
  if (/(^|[?&])embed([=&]|$)/.test(location.search)) return;
  var meta = document.querySelector('meta[name=kpg-build]');
  var worker = meta && meta.getAttribute('data-worker');
  var here = new URL('./', location.href).href;
  if (!worker) {
    // A development build has none; a release build's worker left at this address would
    // answer with that build.
    navigator.serviceWorker.getRegistration(here).then(function (r) {
      if (r && r.scope === here) r.unregister();
    }).catch(function () {});
    return;
  }
  // Once the live page's engine has answered its first request (the page's `kpg-engine`
  // measure): the install fetches the whole build (4.8 MB), and on a phone's link it would
  // otherwise share the bandwidth with the page's own wasm and the engine's, which then take
  // seconds longer (measured: the live page's takeover at 7.1 s instead of 4.6 s on the
  // mobile profile). Its requests then find the wasm files in the HTTP cache. A page whose
  // engine never answers registers a minute after its load.
  var registered = false;
  function register() {
    if (registered) return;
    registered = true;
    navigator.serviceWorker.register(worker).then(function (r) {
      if (navigator.serviceWorker.controller) return r.update();
    }).catch(function () { /* no worker (a private window, a host without HTTPS) */ });
  }
  try {
    var seen = new PerformanceObserver(function (list) {
      if (list.getEntriesByName('kpg-engine').length) { seen.disconnect(); register(); }
    });
    seen.observe({ type: 'measure', buffered: true });
  } catch (e) {
    addEventListener('load', register);
  }
  addEventListener('load', function () { setTimeout(register, 60000); });
})();
