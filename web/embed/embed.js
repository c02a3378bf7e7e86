/*! Karpenter Playground embed, protocol version 1. No dependencies, no build step.
 *
 *   <script src="https://WHERE-THE-PLAYGROUND-IS/embed.js" defer></script>
 *   <pre class="karpenter-playground" data-autoplay data-speed="60" data-until="10m">
 *   apiVersion: karpenter.sh/v1
 *   kind: NodePool
 *   ...
 *   </pre>
 *
 * Each <pre class="karpenter-playground"> becomes a live playground. The YAML stays in the page
 * as text, so it reads fine with JavaScript off and in feed readers; the playground itself
 * (index.html beside this file) is only downloaded when an embed comes near the viewport or
 * its run button is pressed.
 *
 * Options, as data attributes of the <pre>: view (cluster,manifests,events,explain,terminal;
 * the first opens first), autoplay, speed (1|10|60), until and at (Go durations), theme
 * (light|dark|auto), lang (en|ko), readonly, height (px), title, playground (the page's URL),
 * live (visible|click|never). An <svg class="kpg-poster"> before the <pre>'s <details> (what
 * `kpg share --embed` writes) is the poster until the playground takes over: when near the
 * viewport, on click, or never (a static figure).
 *
 * A guided lesson (its card, its steps, its exercises checked): data-lesson="URL" names a lesson
 * file on this site, or an empty data-lesson makes the <pre>'s own text the lesson. Its lab
 * files are read beside it (same site only), and so are the translations data-lesson-translations
 * names ("ko": lesson.ko.yaml beside lesson.yaml). The playground reads the lesson in a worker
 * and shows its text as text: nothing in a lesson runs.
 *
 * Scripting: window.KarpenterPlayground.embeds[i] has start(), load(yaml, {at}), play(),
 * pause(), seek(at), setLang(lang), setSpeed(n), on(type, fn) and a `ready` promise; the
 * wrapper element also fires bubbling kpg:ready, kpg:loaded, kpg:clock, kpg:event and
 * kpg:resize DOM events with the message as `detail`.
 */
(() => {
  'use strict';
  // A page that includes the script twice keeps one API (and one set of embeds).
  if (window.KarpenterPlayground && window.KarpenterPlayground.version) {
    window.KarpenterPlayground.scan();
    return;
  }

  // currentScript exists only while this file runs at top level, so capture it now. A module
  // or an injected copy has none: then the last script named embed.js is the likely one.
  const script = document.currentScript || [...document.querySelectorAll('script[src]')].reverse()
    .find((s) => new URL(s.src, document.baseURI).pathname.endsWith('embed.js'));
  const PLAYGROUND = new URL('index.html', script ? script.src : document.baseURI).href;

  const MIN_HEIGHT = 240;
  const MAX_HEIGHT = 2000;
  const DEFAULT_HEIGHT = 480;
  const POSTER_LINES = 8;
  // After the frame's document has loaded, how long to wait for kpg:ready before showing
  // whatever the frame holds (a 404 page, say) instead of the poster: an author sees why.
  const NO_ANSWER_MS = 15000;
  const VIEWS = ['cluster', 'manifests', 'events', 'explain', 'terminal'];
  // The messages the playground sends, without their kpg: prefix: also the names on() takes.
  const MESSAGES = ['ready', 'loaded', 'resize', 'clock', 'event', 'need-files'];
  // The most lab files one request of a lesson may name.
  const MAX_FILES = 64;
  const DURATION = /^(?:0|(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+)$/;
  const TEXT = {
    en: { run: '▶ Run in Karpenter Playground', loading: 'Loading the playground…' },
    ko: { run: '▶ Karpenter 플레이그라운드에서 실행', loading: '플레이그라운드를 불러오는 중…' },
  };

  const MARK = 'karpenter-playground-manifests';
  const LIVE = ['visible', 'click', 'never'];
  const warn = (what) => console.warn('karpenter-playground: ' + what);

  /** data-autoplay, ="", ="1" and ="true" are on; ="0" and ="false" are off; else unset. */
  function flag(name, value) {
    if (value == null) return null;
    const v = value.trim().toLowerCase();
    if (v === '' || v === '1' || v === 'true') return true;
    if (v === '0' || v === 'false') return false;
    warn(`ignoring data-${name}="${value}" ("", "1", "true", "0" or "false")`);
    return null;
  }

  /** The attribute's value if it is one of `allowed`, else null (with a warning if it was set). */
  function oneOf(name, value, allowed) {
    if (value == null) return null;
    const v = value.trim().toLowerCase();
    if (allowed.includes(v)) return v;
    warn(`ignoring data-${name}="${value}" (one of ${allowed.join(', ')})`);
    return null;
  }

  function duration(name, value) {
    if (value == null) return null;
    const v = value.trim();
    if (DURATION.test(v)) return v;
    warn(`ignoring data-${name}="${value}" (a Go duration such as 90s or 10m)`);
    return null;
  }

  const clamp = (h) => Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.round(h)));

  /** A scenario's short name for the frame's title: its first top-level object's metadata.name. */
  function shortName(yaml) {
    const m = /^metadata:[ \t]*\r?\n(?:[ \t]+.*\r?\n|[ \t]*#.*\r?\n|[ \t]*\r?\n)*?[ \t]+name:[ \t]*["']?([^"'\s#]+)/m.exec(yaml);
    return m ? m[1] : 'scenario';
  }

  /** The poster's excerpt: the first lines of the YAML, blank lines before it dropped. */
  function excerpt(yaml) {
    const lines = yaml.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '').split(/\r?\n/);
    return lines.slice(0, POSTER_LINES).join('\n') + (lines.length > POSTER_LINES ? '\n…' : '');
  }

  /** The poster's language: the <pre>'s data-lang, else the article's <html lang>. */
  function posterLanguage(pre) {
    const own = (pre.dataset.lang || '').trim().toLowerCase();
    if (own === 'en' || own === 'ko') return own;
    return /^ko\b/i.test(document.documentElement.lang || '') ? 'ko' : 'en';
  }

  /** The playground page for a <pre>: data-playground (resolved against the article) or ours. */
  function playgroundOf(pre) {
    const given = pre.dataset.playground;
    if (given) {
      try {
        const url = new URL(given, document.baseURI);
        // Anything but http(s) could run script in the article (javascript:) or never work.
        if (url.protocol === 'https:' || url.protocol === 'http:') return url;
      } catch (_) { /* warned below */ }
      warn(`ignoring data-playground="${given}" (an http(s) URL of the playground's page)`);
    }
    return new URL(PLAYGROUND);
  }

  /** The frame's URL: the page with ?embed&scenario=message and the options that were given. */
  function frameSrc(page, pre) {
    const d = pre.dataset;
    const q = ['embed', 'scenario=message'];
    const put = (k, v) => { if (v != null) q.push(k + '=' + encodeURIComponent(v)); };
    if (d.view != null) {
      const views = [...new Set(d.view.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean))];
      const known = views.filter((v) => VIEWS.includes(v));
      if (known.length < views.length) warn(`ignoring unknown views in data-view="${d.view}" (${VIEWS.join(', ')})`);
      if (known.length) put('view', known.join(','));
    }
    const autoplay = flag('autoplay', d.autoplay);
    if (autoplay != null) put('autoplay', autoplay ? '1' : '0');
    put('speed', oneOf('speed', d.speed, ['1', '10', '60']));
    put('until', duration('until', d.until));
    put('at', duration('at', d.at));
    put('theme', oneOf('theme', d.theme, ['light', 'dark', 'auto']));
    // Without data-lang the embed follows the reader's browser, as the full page does.
    put('lang', oneOf('lang', d.lang, ['en', 'ko']));
    const readonly = flag('readonly', d.readonly);
    if (readonly != null) put('readonly', readonly ? '1' : '0');
    const base = page.origin + page.pathname + (page.search ? page.search + '&' : '?');
    return base + q.join('&');
  }

  function initialHeight(pre) {
    const h = pre.dataset.height;
    if (h == null) return DEFAULT_HEIGHT;
    const n = parseInt(h, 10);
    if (Number.isFinite(n)) return clamp(n);
    warn(`ignoring data-height="${h}" (a number of pixels)`);
    return DEFAULT_HEIGHT;
  }

  function checkAt(at) {
    if ((typeof at === 'number' && Number.isFinite(at) && at >= 0) || (typeof at === 'string' && DURATION.test(at.trim()))) {
      return typeof at === 'string' ? at.trim() : at;
    }
    throw new TypeError('at: milliseconds or a Go duration such as "5m"');
  }

  // Scoped by class names: the host's own styles are never touched. Colours are translucent
  // greys over the host's background and the host's text colour, so the poster suits light and
  // dark articles alike; only the button has its own colours, one pair per colour scheme.
  const CSS = `
.karpenter-playground-embed{position:relative;display:block;box-sizing:border-box;width:100%;max-width:100%;margin:1.5em 0;border:1px solid rgba(128,128,128,.4);border-radius:8px;overflow:hidden;background:rgba(128,128,128,.07)}
.karpenter-playground-embed>pre.karpenter-playground{display:none!important}
.karpenter-playground-embed>iframe{display:block;box-sizing:border-box;width:100%;max-width:100%;border:0;margin:0;padding:0}
.karpenter-playground-embed[data-state=loading]>iframe{opacity:0}
.karpenter-playground-embed>div.kpg-poster{box-sizing:border-box;display:flex;flex-direction:column;justify-content:center;gap:12px;padding:16px;min-width:0;overflow:hidden}
.karpenter-playground-embed .kpg-title{margin:0;font:600 15px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;overflow-wrap:anywhere}
.karpenter-playground-embed[data-state=loading]>div.kpg-poster{position:absolute;inset:0;height:auto!important}
.karpenter-playground-embed .kpg-code{flex:0 1 auto;min-height:0;min-width:0;max-height:none;margin:0;padding:10px 12px;overflow:hidden;white-space:pre;color:inherit;background:rgba(128,128,128,.1);border:0;border-radius:6px;font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;text-align:left}
.karpenter-playground-embed .kpg-run{align-self:flex-start;max-width:100%;margin:0;padding:9px 16px;border:0;border-radius:6px;background:#1f2328;color:#fff;font:600 15px/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;text-align:left;white-space:normal;cursor:pointer}
.karpenter-playground-embed .kpg-run:hover{background:#3a4048}
.karpenter-playground-embed .kpg-run:focus-visible{outline:3px solid #4493f8;outline-offset:2px}
.karpenter-playground-embed[data-state=loading] .kpg-run{cursor:progress;opacity:.8}
.karpenter-playground-embed>.kpg-cover{position:relative;display:block;line-height:0}
.karpenter-playground-embed[data-live=click]>.kpg-cover{cursor:pointer}
.karpenter-playground-embed>.kpg-cover>svg{display:block;width:100%;max-width:100%;height:auto}
.karpenter-playground-embed>.kpg-cover>.kpg-run{position:absolute;left:12px;bottom:12px}
.karpenter-playground-embed[data-state=loading]>iframe.kpg-behind{position:absolute;top:0;left:0}
@media (prefers-color-scheme:dark){.karpenter-playground-embed .kpg-run{background:#e6edf3;color:#0d1117}.karpenter-playground-embed .kpg-run:hover{background:#c9d1d9}}
@media (prefers-reduced-motion:no-preference){.karpenter-playground-embed>iframe{transition:opacity .2s}}`;

  function injectStyle() {
    if (document.getElementById('karpenter-playground-embed-style')) return;
    const style = document.createElement('style');
    style.id = 'karpenter-playground-embed-style';
    style.textContent = CSS;
    (document.head || document.documentElement).append(style);
  }

  const embeds = [];
  const byPre = new WeakMap();
  const byWrapper = new WeakMap();
  // The <pre>s left as static figures (data-live="never").
  const statics = new WeakSet();
  // Each frame's window (the same object for the frame's whole life, whatever it navigates
  // to) → the embed's handler and the origin its messages must come from.
  const inbox = new Map();

  // Lazy: a frame is made when its embed comes within 300px of the viewport. Without
  // IntersectionObserver (very old browsers) only the run button starts one.
  const observer = 'IntersectionObserver' in window ? new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const embed = byWrapper.get(entry.target);
      if (embed) embed.start();
    }
  }, { rootMargin: '300px 0px' }) : null;

  /** The drawing (<svg class="kpg-poster">) a poster snippet puts before the <pre>'s <details>. */
  function drawingOf(pre) {
    const holder = pre.parentElement;
    if (!holder || holder.localName !== 'details' || !holder.classList.contains(MARK)) return null;
    const svg = holder.previousElementSibling;
    return svg && svg.localName === 'svg' && svg.classList.contains('kpg-poster') ? svg : null;
  }

  function convert(pre) {
    const yaml = pre.textContent;
    const text = TEXT[posterLanguage(pre)];
    const page = playgroundOf(pre);
    const src = frameSrc(page, pre);
    const live = oneOf('live', pre.dataset.live, LIVE) || 'visible';
    const drawing = drawingOf(pre);
    // A static figure: the drawing, or the <pre> itself, stays as the author wrote it.
    if (live === 'never') {
      statics.add(pre);
      return null;
    }
    // An opaque origin (file:) cannot be named as a target; any other is, so our YAML and
    // commands reach only the playground's origin.
    const origin = page.origin === 'null' ? '*' : page.origin;
    // A guided lesson: from the URL in data-lesson, or the <pre>'s own text when it is empty.
    const lessonAttr = pre.dataset.lesson;
    const isLesson = lessonAttr !== undefined;
    let lessonUrl = null;
    if (isLesson && lessonAttr.trim()) {
      try { lessonUrl = new URL(lessonAttr.trim(), document.baseURI).href; } catch (err) { warn(`data-lesson="${lessonAttr}" is not a URL`); }
    }
    // The languages whose files sit beside the lesson: named, since a browser cannot list a
    // site's files (and a guess that is not there is a failed request in the console).
    const translations = (pre.dataset.lessonTranslations || '').split(/[\s,]+/).filter(Boolean);
    const title = pre.dataset.title || (isLesson ? 'Karpenter Playground lesson' : 'Karpenter Playground: ' + shortName(yaml));
    let height = initialHeight(pre);

    const wrapper = document.createElement('div');
    wrapper.className = 'karpenter-playground-embed';
    wrapper.dataset.state = 'poster';
    wrapper.dataset.live = live;
    wrapper.setAttribute('role', 'region');
    wrapper.setAttribute('aria-label', title);
    const run = document.createElement('button');
    run.type = 'button';
    run.className = 'kpg-run';
    run.textContent = text.run;
    let poster;
    if (drawing) {
      // The drawing is the poster, the button over its corner; the <details> goes (the
      // wrapper keeps the <pre>).
      poster = document.createElement('div');
      poster.className = 'kpg-cover';
      const holder = pre.parentElement;
      holder.replaceWith(wrapper);
      poster.append(drawing, run);
      if (live === 'click') poster.addEventListener('click', (e) => { if (e.target !== run) api.start({ eager: true }); });
    } else {
      poster = document.createElement('div');
      poster.className = 'kpg-poster';
      poster.style.height = height + 'px';
      const heading = document.createElement('p');
      heading.className = 'kpg-title';
      heading.textContent = title;
      const code = document.createElement('pre');
      code.className = 'kpg-code';
      code.textContent = excerpt(yaml);
      poster.append(heading, code, run);
      pre.replaceWith(wrapper);
    }
    // The original stays, hidden, inside the wrapper: its text is still the page's content
    // (search, reader modes, copy of the whole page) and it marks the <pre> as converted.
    pre.hidden = true;
    wrapper.append(pre, poster);

    let iframe = null;
    let frameWindow = null;
    let connected = false;       // kpg:ready arrived: the frame listens
    let queue = [];              // what was asked before that
    let lastLoad = { type: 'kpg:load', yaml };
    // The lesson message, once its text is read (a fetch for data-lesson="URL").
    function lessonMessage() {
      if (!lessonUrl) return Promise.resolve({ type: 'kpg:lesson', text: yaml, url: null });
      return fetch(lessonUrl).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status}`))))
        .then((text) => ({ type: 'kpg:lesson', text, url: lessonUrl, translations }));
    }
    // The lab files a lesson names, read beside it; only from the lesson's own site.
    function sendFiles(paths) {
      const base = lessonUrl || document.baseURI;
      const site = new URL(base).origin;
      const wanted = paths.filter((p) => typeof p === 'string').slice(0, MAX_FILES);
      Promise.all(wanted.map((p) => {
        let url;
        try { url = new URL(p, base); } catch (err) { return [p, null]; }
        if (url.origin !== site) return [p, null];
        return fetch(url).then((r) => (r.ok ? r.text() : null), () => null).then((text) => [p, text]);
      })).then((entries) => post({ type: 'kpg:files', files: Object.fromEntries(entries) }));
    }
    let noAnswer = 0;
    let resolveReady;
    const listeners = new Map();

    function emit(type, value) {
      const set = listeners.get(type);
      if (!set) return;
      for (const fn of [...set]) {
        // One author's failing listener must not silence the others, nor our own handling.
        try { fn(value); } catch (err) { setTimeout(() => { throw err; }); }
      }
    }

    function setHeight(h) {
      height = clamp(h);
      if (iframe) iframe.style.height = height + 'px';
    }

    function revealFrame() {
      clearTimeout(noAnswer);
      if (!poster.isConnected) return;
      // Keep a keyboard user where they were: the button they pressed becomes the playground.
      const hadFocus = poster.contains(document.activeElement);
      poster.remove();
      iframe.classList.remove('kpg-behind');
      wrapper.dataset.state = 'ready';
      wrapper.removeAttribute('aria-busy');
      if (hadFocus) iframe.focus();
    }

    function post(message) {
      frameWindow.postMessage(message, origin);
    }

    function send(message) {
      if (connected) post(message);
      else { queue.push(message); api.start({ eager: true }); }
    }

    function receive(m) {
      switch (m.type) {
        case 'kpg:ready': {
          api.protocol = m.version;
          const waiting = queue;
          queue = [];
          connected = true;
          // The <pre>'s scenario goes first unless a script already asked for another; after a
          // reload of the frame, the latest scenario is sent again.
          if (isLesson) {
            lessonMessage().then(post, (err) => warn(`the lesson ${lessonUrl} could not be read: ${err.message}`));
          } else if (!waiting.some((w) => w.type === 'kpg:load')) post(lastLoad);
          waiting.forEach(post);
          break;
        }
        case 'kpg:need-files':
          if (!Array.isArray(m.paths)) return;
          sendFiles(m.paths);
          break;
        case 'kpg:loaded':
          revealFrame();
          resolveReady(m);
          break;
        case 'kpg:resize':
          if (typeof m.height !== 'number' || !Number.isFinite(m.height)) return;
          setHeight(m.height);
          break;
        case 'kpg:event':
          if (!m.event || typeof m.event !== 'object' || typeof m.event.kind !== 'string') return;
          break;
        default:
      }
      const name = m.type.slice(4);
      emit(name, m);
      if (name === 'event' && !MESSAGES.includes(m.event.kind)) emit(m.event.kind, m.event);
      wrapper.dispatchEvent(new CustomEvent(m.type, { detail: m, bubbles: true }));
    }

    const api = {
      element: wrapper,
      iframe: null,
      protocol: null,
      /** Resolves with the first kpg:loaded message: the scenario is on screen. */
      ready: new Promise((resolve) => { resolveReady = resolve; }),

      /** Makes the frame now (idempotent). */
      start(how) {
        if (iframe) return api;
        if (observer) observer.unobserve(wrapper);
        iframe = document.createElement('iframe');
        iframe.title = title;
        // The observer and the button start an embed that is on screen or nearly, where lazy
        // loading changes nothing; a script may start one far below, and would wait for it
        // forever if the browser deferred that frame until the reader scrolled there.
        iframe.loading = how && how.eager ? 'eager' : 'lazy';
        iframe.style.height = height + 'px';
        iframe.addEventListener('load', () => {
          if (!poster.isConnected) return;
          clearTimeout(noAnswer);
          noAnswer = setTimeout(() => {
            warn(`no answer from the playground at ${page.href}`);
            revealFrame();
          }, NO_ANSWER_MS);
        });
        iframe.src = src;
        wrapper.dataset.state = 'loading';
        wrapper.setAttribute('aria-busy', 'true');
        poster.style.height = '';
        run.textContent = text.loading;
        // Behind a drawing, which keeps its own size, until the cluster is drawn.
        if (drawing) iframe.className = 'kpg-behind';
        wrapper.insertBefore(iframe, poster);
        frameWindow = iframe.contentWindow;
        inbox.set(frameWindow, { receive, origin: page.origin });
        api.iframe = iframe;
        return api;
      },
      load(yamlText, options) {
        if (typeof yamlText !== 'string') throw new TypeError('load(yaml): yaml must be a string');
        lastLoad = { type: 'kpg:load', yaml: yamlText };
        if (options && options.at != null) lastLoad.at = checkAt(options.at);
        send(lastLoad);
        return api;
      },
      play() { send({ type: 'kpg:play' }); return api; },
      pause() { send({ type: 'kpg:pause' }); return api; },
      seek(at) { send({ type: 'kpg:seek', at: checkAt(at) }); return api; },
      setLang(lang) {
        if (lang !== 'en' && lang !== 'ko') throw new TypeError('setLang: "en" or "ko"');
        send({ type: 'kpg:lang', lang });
        return api;
      },
      setSpeed(speed) {
        const n = Number(speed);
        if (n !== 1 && n !== 10 && n !== 60) throw new TypeError('setSpeed: 1, 10 or 60');
        send({ type: 'kpg:speed', speed: n });
        return api;
      },
      /** type: ready|loaded|resize|clock|event or an event kind (nodeLaunched, ...). */
      on(type, fn) {
        if (typeof fn !== 'function') throw new TypeError('on(type, fn): fn must be a function');
        if (!listeners.has(type)) listeners.set(type, new Set());
        listeners.get(type).add(fn);
        return () => { listeners.get(type).delete(fn); };
      },
    };

    run.addEventListener('click', () => api.start({ eager: true }));
    byPre.set(pre, api);
    byWrapper.set(wrapper, api);
    embeds.push(api);
    if (observer && live === 'visible') observer.observe(wrapper);
    return api;
  }

  // One listener for every frame. A message counts only if it comes from one of our frames'
  // windows, from the playground's origin, and is one of the protocol's plain objects.
  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!event.source || !m || typeof m !== 'object' || typeof m.type !== 'string') return;
    if (!m.type.startsWith('kpg:') || !MESSAGES.includes(m.type.slice(4))) return;
    const frame = inbox.get(event.source);
    if (!frame || (frame.origin !== 'null' && event.origin !== frame.origin)) return;
    frame.receive(m);
  });

  /** Converts every <pre class="karpenter-playground"> in root not converted yet. */
  function scan(root) {
    const scope = root && typeof root.querySelectorAll === 'function' ? root : document;
    const found = [...scope.querySelectorAll('pre.karpenter-playground')];
    if (scope.matches && scope.matches('pre.karpenter-playground')) found.unshift(scope);
    const fresh = found.filter((pre) => !byPre.has(pre) && !statics.has(pre) && !pre.closest('.karpenter-playground-embed'));
    if (fresh.length) injectStyle();
    return fresh.map(convert).filter(Boolean);
  }

  /** The embed of an element (its wrapper, <pre>, frame or anything inside), or by index. */
  function get(which) {
    if (typeof which === 'number') return embeds[which] || null;
    if (which && which.nodeType === 1) return embeds.find((e) => e.element === which || e.element.contains(which)) || null;
    return null;
  }

  window.KarpenterPlayground = { version: 1, embeds, scan, get };
  scan();
  // In <head> or mid-page, the rest of the article is still to come.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => scan());
})();
