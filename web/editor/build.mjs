// Bundles the page's editor (editor.js and CodeMirror, from package-lock.json) into one
// minified ES module, dist/kpg-editor.js, with the licences of what it bundles beside it
// (dist/kpg-editor.licenses.txt). Run by scripts/editor-bundle; needs `npm ci` first.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const out = path.join(here, 'dist');
const result = await build({
  entryPoints: [path.join(here, 'editor.js')],
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  legalComments: 'none',
  banner: { js: '/* Karpenter Playground editor: CodeMirror 6 (MIT); licences in kpg-editor.licenses.txt */' },
  outfile: path.join(out, 'kpg-editor.js'),
  metafile: true,
  logLevel: 'warning',
});
// One licence per bundled package, in a stable order.
const packages = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (m) packages.add(m[1]);
}
const texts = [...packages].sort().map((p) => {
  const dir = path.join(here, 'node_modules', p);
  const { version, license } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = fs.readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  return `${p} ${version} (${license})\n\n${file ? fs.readFileSync(path.join(dir, file), 'utf8').trim() : ''}\n`;
});
fs.writeFileSync(path.join(out, 'kpg-editor.licenses.txt'), texts.join('\n----\n\n'));
