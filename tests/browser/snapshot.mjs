// A cluster's snapshot on the page (issue 32): what `kubectl get … -o yaml` printed, opened
// with "Open file…" or pasted with Ctrl+V, is read in the engine's worker and imported. The
// tabs, the saved session and so any share link hold only the redacted scenario, and nothing
// leaves the browser: no request of any kind while it is read and simulated.
//
//   node tests/browser/snapshot.mjs [dist] [artifacts]
import fs from 'node:fs';
import path from 'node:path';
import { serve } from './server.mjs';
import { assert, editorReady, editorText, finish, focusEditor, launch, live, settled, slow, test } from './harness.mjs';

const dist = path.resolve(process.argv[2] || 'dist');
const artifacts = path.resolve(process.argv[3] || 'target/browser-artifacts');
fs.mkdirSync(artifacts, { recursive: true });

const { server, url } = await serve(dist, '/snapshot/');
const browser = await launch();
const errors = [];

// tests/snapshots/small.yaml: kubectl's List of three nodes (two Karpenter's, one of the
// "system" node group), their pods, ReplicaSets, a Service, a ConfigMap and an Event; a
// container's environment holds a password.
const SNAPSHOT = path.resolve('tests/snapshots/small.yaml');
const NODES = ['ip-10-0-1-10.ec2.internal', 'ip-10-0-2-20.ec2.internal', 'ip-10-0-3-30.ec2.internal'];
const SECRETS = ['hunter2', 'DATABASE_PASSWORD', 'registry.example.com', 'managedFields', 'resourceVersion'];

async function open() {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await live(page);
  await settled(page);
  // Everything the page loads on its own (CodeMirror's bundle comes after the first frames)
  // is in before the requests are watched.
  await editorReady(page);
  return page;
}

/** Every request the page and its worker make from now on, and what the server saw. */
function watchRequests(page) {
  const seen = [];
  page.context().on('request', (r) => seen.push(r.url()));
  server.resetCounts();
  return () => [...seen, ...[...server.requests.keys()].map((p) => `server: ${p}`)];
}

/** The tabs' text as the page saved it (the whole workspace, not only the tab on screen). */
const saved = (page) => page.evaluate(() => localStorage.getItem('kpg.session') || '');

/** The node cards on screen, by name. */
const nodeCards = (page) => page.evaluate(() => [...document.querySelectorAll('[data-node]')].map((n) => n.dataset.node));

await test('a snapshot opened with Open file… is imported in the worker: its nodes on screen, the tabs redacted, no request made', async () => {
  const page = await open();
  const requests = watchRequests(page);
  const chooser = page.waitForEvent('filechooser');
  await page.click('label.open-file');
  await (await chooser).setFiles(SNAPSHOT);
  const notice = page.locator('.notice');
  await page.waitForSelector('.notice:has-text("Imported the cluster snapshot small.yaml")', { timeout: slow(15000) });
  const told = await notice.innerText();
  assert(/3 nodes, 4 pods/.test(told), `the notice counts what was read: ${told}`);
  assert(/never left this browser/.test(told), `and says where it stayed: ${told}`);
  // The cluster as it stands: the snapshot's own nodes, Ready, at time zero.
  await page.waitForFunction((names) => names.every((n) => document.querySelector(`[data-node="${n}"]`)),
    NODES, { timeout: slow(15000) });
  const cards = await nodeCards(page);
  assert(NODES.every((n) => cards.includes(n)), `the snapshot's nodes are on screen: ${cards.join(', ')}`);
  const titles = await page.locator('.doc-tab').allInnerTexts();
  assert(titles.some((t) => /NodePool\s*default/i.test(t)) && titles.some((t) => /List\s*nodes/i.test(t)),
    `a tab per NodePool, one List of the nodes: ${titles.join(' | ')}`);
  await page.waitForFunction(() => (localStorage.getItem('kpg.session') || '').includes('ip-10-0-1-10'), null, { timeout: slow(10000) });
  const kept = await saved(page);
  const leaked = SECRETS.filter((s) => kept.includes(s));
  assert(leaked.length === 0, `the saved tabs hold the redacted scenario only: ${leaked.join(', ')}`);
  await page.screenshot({ path: path.join(artifacts, 'snapshot-opened.png') });
  const made = requests();
  assert(made.length === 0, `no request while the snapshot was read and simulated: ${made.join(', ')}`);
  await page.context().close();
});

await test('a snapshot pasted with Ctrl+V is imported, not put into the editor, and Undo brings the tabs back', async () => {
  const page = await open();
  const before = await page.locator('.doc-tab').allInnerTexts();
  const requests = watchRequests(page);
  await focusEditor(page);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((t) => navigator.clipboard.writeText(t), fs.readFileSync(SNAPSHOT, 'utf8'));
  await page.keyboard.press('Control+V');
  await page.waitForSelector('.notice:has-text("Imported the cluster snapshot the paste")', { timeout: slow(15000) });
  const text = await editorText(page);
  const leaked = SECRETS.filter((s) => text.includes(s));
  assert(leaked.length === 0 && text.length < 4000, `the tab on screen is an imported object, not the paste: ${leaked.join(', ')} ${text.slice(0, 200)}`);
  await page.waitForFunction((n) => !!document.querySelector(`[data-node="${n}"]`), NODES[0], { timeout: slow(15000) });
  const made = requests();
  assert(made.length === 0, `no request while the paste was read: ${made.join(', ')}`);
  await page.click('.notice button.undo');
  await page.waitForFunction((n) => document.querySelectorAll('.doc-tab').length === n, before.length, { timeout: slow(10000) });
  await page.context().close();
});

await test('a scenario someone wrote opens as written, comments and all, through the same worker', async () => {
  const page = await open();
  const file = path.join(artifacts, 'written-scenario.yaml');
  const written = [
    '# my team\'s pool: kept as written',
    'apiVersion: karpenter.sh/v1', 'kind: NodePool', 'metadata:', '  name: team-a', 'spec:',
    '  template:', '    spec:', '      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}',
    '      requirements: []', '',
  ].join('\n');
  fs.writeFileSync(file, written);
  const chooser = page.waitForEvent('filechooser');
  await page.click('label.open-file');
  await (await chooser).setFiles(file);
  await page.waitForSelector('.notice:has-text("Opened written-scenario.yaml")', { timeout: slow(15000) });
  const text = await editorText(page);
  assert(text.startsWith('# my team\'s pool: kept as written\n'), `the file opens as written: ${text.slice(0, 80)}`);
  await page.context().close();
});

await test('no errors in the console', async () => {
  assert(errors.length === 0, errors.join('\n'));
});

await browser.close();
server.close();
finish();
