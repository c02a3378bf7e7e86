// Makes a built page keep itself for offline use: trunk's post-build hook runs it on the
// staging directory, last (after the editor bundle and the drawn first visit, which change
// index.html). Node's standard library only.
//
//   node web/offline/stamp.mjs DIR
//
// - The build's id: a digest of every file of DIR (their paths and contents) and of the
//   service worker's source. Not the hash trunk puts in kpg-web-<hash>.js: that one is the
//   page's wasm only, and a build that changes the engine's worker, the stylesheet, the
//   editor or index.html alone keeps it.
// - index.html gets `<meta name="kpg-build" content="ID">`: the page reads its build there
//   (web/src/shell/offline.rs says when a new one arrived). In a release build the meta also names
//   the service worker (`data-worker="sw.js"`), which web/offline/kpg-offline.js registers.
// - DIR/sw.js (release builds only): web/offline/sw.js after the build's id and the list of
//   the files it keeps, each with its Subresource Integrity hash (sha384), so it installs the
//   whole build or nothing. A debug build, or one `trunk serve` reloads, has no service
//   worker: it would keep answering with the previous build while trunk reloads the page.
//
// Run again on a built directory, it stamps it anew (a test makes a "next build" this way).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node web/offline/stamp.mjs DIR');
  process.exit(2);
}
const source = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'sw.js'), 'utf8');
const WORKER = 'sw.js';
const META = /\n?[ \t]*<meta name="kpg-build"[^>]*>/;

const indexPath = path.join(dir, 'index.html');
const index = fs.readFileSync(indexPath, 'utf8').replace(META, '');
// `trunk serve` reloads the page on every rebuild (its script in index.html opens the
// .well-known/trunk/ws socket): a worker would keep answering with the build before.
const withWorker = (process.env.TRUNK_PROFILE || 'release') === 'release'
  && !index.includes('.well-known/trunk/ws');
fs.writeFileSync(indexPath, index);
fs.rmSync(path.join(dir, WORKER), { force: true });

/**
 * Every file under `dir`, as paths relative to it with '/', in a stable order; not the hidden
 * ones (a host's `.nojekyll`, trunk's staging folder), nor the book.
 */
function files(root, under = '') {
  return fs.readdirSync(path.join(root, under), { withFileTypes: true })
    // Not the book (`docs/`, scripts/book): 3 MB of pages a learner rarely opens offline; the
    // worker passes their requests to the network.
    .filter((e) => !e.name.startsWith('.') && !(under === '' && e.name === 'docs'))
    .flatMap((e) => {
      const rel = under ? `${under}/${e.name}` : e.name;
      return e.isDirectory() ? files(root, rel) : [rel];
    })
    .sort();
}

const kept = files(dir);
const digest = crypto.createHash('sha256').update(source);
for (const rel of kept) {
  const content = crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, rel))).digest('hex');
  digest.update(`${rel}\0${content}\n`);
}
const id = digest.digest('hex').slice(0, 16);

const meta = `<meta name="kpg-build" content="${id}"${withWorker ? ` data-worker="${WORKER}"` : ''}>`;
if (!index.includes('</head>')) {
  console.error(`stamp: ${indexPath} has no </head>`);
  process.exit(1);
}
fs.writeFileSync(indexPath, index.replace('</head>', `  ${meta}\n</head>`));

if (withWorker) {
  let bytes = 0;
  const list = kept.map((rel) => {
    const content = fs.readFileSync(path.join(dir, rel));
    bytes += content.length;
    return [rel, `sha384-${crypto.createHash('sha384').update(content).digest('base64')}`];
  });
  const build = JSON.stringify({ id, files: list }).replace(/\],\[/g, '],\n  [');
  fs.writeFileSync(path.join(dir, WORKER), `const BUILD = ${build};\n\n${source}`);
  console.error(`stamp: build ${id}, ${list.length} files kept offline (${bytes} B)`);
} else {
  console.error(`stamp: build ${id} (a development build: no service worker)`);
}
