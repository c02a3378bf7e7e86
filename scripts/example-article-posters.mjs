// Draws the example article's posters (web/embed/example-article.html) with `kpg share --embed`:
// each <pre class="karpenter-playground"> gets the drawing of its scenario at the instant it
// opens at (data-at, else 0s), in its theme, before a <details> that holds the <pre>. Run
// again after the engine or the poster's drawing changes; an embed that already has a poster
// gets a fresh one.
//
//   node scripts/example-article-posters.mjs [path/to/kpg]
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kpg = process.argv[2] || path.join(repo, 'target/release/kpg');
const file = path.join(repo, 'web/embed/example-article.html');
const MARK = 'karpenter-playground-manifests';
const unescape = (t) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
  .replace(/&#39;/g, "'").replace(/&amp;/g, '&');

let html = fs.readFileSync(file, 'utf8');
// Drop the posters made before, so the <pre>s are bare again.
html = html.replace(new RegExp(`<svg [^>]*class="kpg-poster"[^]*?</svg>\\n<details class="${MARK}"><summary>[^<]*</summary>\\n(<pre class="karpenter-playground"[^]*?</pre>)\\n</details>`, 'g'), '$1');
let count = 0;
html = html.replace(/<pre class="karpenter-playground"([^>]*)>([^]*?)<\/pre>/g, (all, attrs, body) => {
  const attr = (name) => { const m = new RegExp(`data-${name}="([^"]*)"`).exec(attrs); return m && m[1]; };
  const args = ['share', '-', '--embed'];
  if (attr('at')) args.push('--at', attr('at'));
  if (attr('theme')) args.push('--theme', attr('theme'));
  if (attr('lang')) args.push('--lang', attr('lang'));
  const snippet = execFileSync(kpg, args, { input: unescape(body) }).toString();
  const svg = snippet.slice(0, snippet.indexOf('</svg>') + '</svg>'.length);
  const summary = /<summary>([^<]*)<\/summary>/.exec(snippet)[1];
  count += 1;
  return `${svg}\n<details class="${MARK}"><summary>${summary}</summary>\n${all}\n</details>`;
});
fs.writeFileSync(file, html);
console.log(`${count} posters drawn into ${path.relative(repo, file)}`);
