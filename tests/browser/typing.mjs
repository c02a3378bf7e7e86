// A learner types: every test here presses real keys (playwright's keyboard, and IME
// composition through the DevTools protocol for Korean), in the YAML editor, in the terminal,
// in the clock's "go to" field and in an embed on an article, and checks that the keys land
// where the learner meant them: in the text, never on the page's shortcuts (Space plays, `.`
// steps). Tab never traps a keyboard user in the editor, and a skip link leads to the cluster.
//
//   node tests/browser/typing.mjs [dist] [artifacts]
import fs from 'node:fs';
import path from 'node:path';
import { serve } from './server.mjs';
import { assert, editorReady, editorText, finish, firstEmbedFrame, launch, live, slow, test } from './harness.mjs';

const dist = path.resolve(process.argv[2] || 'dist');
const artifacts = path.resolve(process.argv[3] || 'target/browser-artifacts');
fs.mkdirSync(artifacts, { recursive: true });

const { server, url } = await serve(dist, '/typing/');
const browser = await launch();
const errors = [];

async function freshPage(locale = 'en-US', where = url) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(where);
  await live(page);
  await page.waitForSelector('[data-lane="pool/hello-world"]');
  return page;
}

/** The clock and whether it plays: what a stray shortcut would change. */
const transport = (page) => page.evaluate(() => ({
  ms: document.querySelector('output.clock')?.dataset.ms,
  playing: document.querySelector('button.play').getAttribute('aria-pressed'),
}));

async function assertStill(page, what) {
  // A key the page took would have moved the clock by now (`.` at once, Space a frame later).
  await page.waitForTimeout(slow(300));
  const t = await transport(page);
  assert(t.ms === '0' && t.playing === 'false', `${what}: the clock stays at 0:00, paused: ${JSON.stringify(t)}`);
}

/** Opens the EC2NodeClass tab and puts the caret at the end of its `role:` line, by clicking. */
async function caretAfterRole(page) {
  await page.click('.doc-tab:has-text("EC2NodeClass")');
  await editorReady(page);
  const line = page.locator('.pane.manifests .cm-line', { hasText: 'role: KarpenterNodeRole-playground' });
  await line.click();
  await page.keyboard.press('End');
}

const focusIn = (page, selector) => page.evaluate((s) => !!document.activeElement?.closest(s), selector);

await test('typing a comment with spaces and dots into the editor puts every key in the text and moves no clock', async () => {
  const page = await freshPage();
  await caretAfterRole(page);
  await page.keyboard.type(' # a b.c');
  await page.waitForFunction(() => document.querySelector('.pane.manifests textarea.input').value.includes('# a b.c'),
    null, { timeout: slow(5000) }).catch(() => {});
  const text = await editorText(page);
  assert(text.includes('  role: KarpenterNodeRole-playground # a b.c\n'), `the line as typed: ${text.split('\n').find((l) => l.includes('role:'))}`);
  await assertStill(page, 'Space and . typed into the editor');
  // Enter: a new line, and nothing else.
  const lines = text.split('\n').length;
  await page.keyboard.press('Enter');
  await page.keyboard.type('#.');
  const after = await editorText(page);
  assert(after.split('\n').length === lines + 1, `Enter added one line: ${lines} -> ${after.split('\n').length}`);
  assert(/# a b\.c\n\s*#\.\n/.test(after), `the new line holds what was typed: ${after}`);
  await assertStill(page, 'Enter typed into the editor');
  await page.context().close();
});

await test('Tab does not trap a keyboard user: arriving by Tab it moves on, once typing it indents, Escape then Tab leaves', async () => {
  const page = await freshPage();
  await editorReady(page);
  const before = await editorText(page);
  // Arrive from the open document's tab, by keyboard only.
  await page.focus('.doc-tab[aria-selected="true"]');
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await focusIn(page, '.cm-content');
  }
  assert(reached, 'Tab reaches the editor');
  assert(await page.locator('.editor[data-tab="moves"]').count() === 1, 'arriving by Tab, Tab moves on');
  const hint = page.locator('#editor-help .keys-moves');
  assert(await hint.isVisible(), 'and the hint under the editor, in sight, says so');
  assert(/Tab moves on/.test(await hint.innerText()), `the hint: ${await hint.innerText()}`);
  await page.keyboard.press('Tab');
  assert(!(await focusIn(page, '.cm-content')), 'a second Tab leaves the editor');
  assert(await editorText(page) === before, 'and changed nothing');
  // Back with Shift+Tab: still moving through.
  await page.keyboard.press('Shift+Tab');
  assert(await focusIn(page, '.cm-content'), 'Shift+Tab comes back');
  await page.keyboard.press('Shift+Tab');
  assert(!(await focusIn(page, '.cm-content')), 'and Shift+Tab leaves backwards');
  assert(await editorText(page) === before, 'still unchanged');

  // A learner who clicks into the text and types: Tab indents (two spaces, YAML has no tabs).
  await caretAfterRole(page);
  await page.keyboard.type(' #');
  await page.keyboard.press('Tab');
  await page.keyboard.type('x');
  assert(await page.locator('.editor[data-tab="indents"]').count() === 1, 'typing makes Tab indent');
  assert(await page.locator('#editor-help .keys-indents').isVisible(), 'and the hint says so');
  const typed = await editorText(page);
  assert(typed.includes('role: KarpenterNodeRole-playground #  x\n'), `Tab typed two spaces: ${typed.split('\n').find((l) => l.includes('role:'))}`);
  assert(await focusIn(page, '.cm-content'), 'and kept the focus');
  // Escape, then Tab: out.
  await page.keyboard.press('Escape');
  assert(await page.locator('.editor[data-tab="moves"]').count() === 1, 'Escape makes Tab move on');
  await page.keyboard.press('Tab');
  assert(!(await focusIn(page, '.cm-content')), 'Escape, then Tab, leaves the editor');
  assert(await editorText(page) === typed, 'without typing anything');
  await assertStill(page, 'Tab and Escape in the editor');
  await page.screenshot({ path: path.join(artifacts, 'typing-01-editor-hint.png') });
  await page.context().close();
});

await test('Korean typed with an IME into the editor: the composition finishes in the text, a space inside it plays nothing', async () => {
  const page = await freshPage('ko-KR');
  await caretAfterRole(page);
  await page.keyboard.type(' # ');
  const cdp = await page.context().newCDPSession(page);
  // 한 then 글, each built from jamo; the space that ends 한 comes while it is composing.
  for (const step of ['ㅎ', '하', '한']) await cdp.send('Input.imeSetComposition', { text: step, selectionStart: 1, selectionEnd: 1 });
  await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', windowsVirtualKeyCode: 229, key: 'Process', code: 'Space' });
  await cdp.send('Input.insertText', { text: '한' });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', windowsVirtualKeyCode: 32, key: ' ', code: 'Space' });
  await page.keyboard.type(' ');
  for (const step of ['ㄱ', '그', '글']) await cdp.send('Input.imeSetComposition', { text: step, selectionStart: 1, selectionEnd: 1 });
  await cdp.send('Input.insertText', { text: '글' });
  const text = await editorText(page);
  assert(text.includes('role: KarpenterNodeRole-playground # 한 글\n'), `the Korean comment as composed: ${text.split('\n').find((l) => l.includes('role:'))}`);
  await assertStill(page, 'Korean composed in the editor');
  await page.context().close();
});

await test('the terminal takes its keys: spaces and dots typed, Enter runs, Tab completes, Escape then Tab leaves, an IME\'s Enter composes', async () => {
  const page = await freshPage();
  await page.click('#tab-terminal');
  const input = page.locator('.terminal input');
  await input.click();
  await page.keyboard.type('kubectl get nodes -L karpenter.sh/nodepool');
  assert(await input.inputValue() === 'kubectl get nodes -L karpenter.sh/nodepool', `typed as is: ${await input.inputValue()}`);
  await assertStill(page, 'Space and . typed into the terminal');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.terminal[data-pending="0"] .entry .cmd:has-text("kubectl get nodes")');
  assert(await input.inputValue() === '', 'Enter ran the line and cleared it');
  // Tab completes, as in a shell.
  await page.keyboard.type('kubectl get nodec');
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => document.querySelector('.terminal input').value.startsWith('kubectl get nodeclaim'),
    null, { timeout: slow(5000) });
  assert(await focusIn(page, '.terminal'), 'and keeps the focus');
  // Escape, then Tab: on to the next control.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  assert(!(await focusIn(page, '.terminal input')), 'Escape, then Tab, leaves the terminal');
  await assertStill(page, 'Enter, Tab and Escape in the terminal');

  // An IME's Enter picks the syllable; it does not run the line.
  await input.click();
  await input.fill('');
  await page.keyboard.type('echo ');
  const entries = await page.locator('.terminal .entry').count();
  const cdp = await page.context().newCDPSession(page);
  for (const step of ['ㅎ', '하', '한']) await cdp.send('Input.imeSetComposition', { text: step, selectionStart: 1, selectionEnd: 1 });
  await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', windowsVirtualKeyCode: 229, key: 'Enter', code: 'Enter' });
  await cdp.send('Input.insertText', { text: '한' });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', windowsVirtualKeyCode: 13, key: 'Enter', code: 'Enter' });
  await page.waitForTimeout(slow(300));
  assert(await page.locator('.terminal .entry').count() === entries, 'the composing Enter ran nothing');
  assert(await input.inputValue() === 'echo 한', `the syllable is in the line: ${await input.inputValue()}`);
  await page.context().close();
});

await test('the clock is a field to go to any instant: typed, Enter goes there, Escape leaves it as it was', async () => {
  const page = await freshPage();
  await page.click('.transport .clock-go');
  await page.waitForSelector('.transport .clock-input:focus');
  assert(await page.locator('.transport .clock-input').inputValue() === '0:00', 'the field opens with the clock\'s time');
  await page.keyboard.type('2:30');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('output.clock')?.dataset.ms === '150000', null, { timeout: slow(10000) });
  assert(await page.locator('button.play[aria-pressed="false"]').count() === 1, 'paused there');
  assert(await focusIn(page, '.transport .clock-go'), 'the focus goes back to the clock');
  await page.waitForSelector('[data-lane="pool/hello-world"] .node.ready', { timeout: slow(10000) });
  // A Go duration, as a scenario's `until` takes it; nonsense is refused in place.
  await page.keyboard.press('Enter');
  await page.waitForSelector('.transport .clock-input:focus');
  await page.keyboard.type('soon');
  await page.keyboard.press('Enter');
  assert(await page.locator('.transport .clock-input[aria-invalid="true"]').count() === 1, 'nonsense is marked');
  await page.keyboard.press('Escape');
  assert(await page.locator('output.clock').getAttribute('data-ms') === '150000', 'Escape leaves the clock where it was');
  await page.click('.transport .clock-go');
  await page.waitForSelector('.transport .clock-input:focus');
  await page.keyboard.type('5m');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('output.clock')?.dataset.ms === '300000', null, { timeout: slow(10000) });
  await page.context().close();
});

await test('a skip link is the first Tab and leads to the cluster; its pending pod is a few Tabs on', async () => {
  const page = await freshPage();
  await page.keyboard.press('Tab');
  const skip = page.locator('.skip-link');
  assert(await focusIn(page, '.skip-link'), 'the first Tab lands on the skip link');
  const box = await skip.boundingBox();
  assert(box && box.y >= 0 && box.height > 0, `and it shows: ${JSON.stringify(box)}`);
  await page.keyboard.press('Enter');
  assert(await focusIn(page, '.pane.cluster'), 'Enter moves the focus to the cluster');
  let tabs = 0;
  while (tabs < 12 && !(await focusIn(page, '.tray .pod'))) {
    await page.keyboard.press('Tab');
    tabs++;
  }
  assert(await focusIn(page, '.tray .pod'), 'the pending pod is reached');
  assert(tabs <= 4, `within a few Tabs of the cluster: ${tabs}`);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.explanation[data-kind="pod"]');
  await assertStill(page, 'the skip link and the pod');
  await page.context().close();
});

await test('in an embed on an article, keys typed into its editor stay there: no clock moves, nothing plays', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url + 'example-article.html');
  await page.evaluate(() => {
    window.__clocks = [];
    document.addEventListener('kpg:clock', (e) => window.__clocks.push(e.detail));
  });
  const frame = await firstEmbedFrame(page);
  await frame.waitForSelector('[data-lane="pool/hello-world"]', { timeout: slow(30000) });
  // A wide embed shows the manifests beside the cluster; a narrow one behind a tab.
  if (await frame.locator('.embed-tab[data-view="manifests"]').isVisible()) await frame.click('.embed-tab[data-view="manifests"]');
  await frame.waitForSelector('.editor.cm-ready .cm-content', { timeout: slow(20000) });
  await frame.click('.doc-tab:has-text("EC2NodeClass")');
  await frame.locator('.cm-line', { hasText: 'role:' }).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' # a b.c');
  await page.keyboard.press('Enter');
  const text = await frame.evaluate(() => document.querySelector('.editor').kpgEditor.view.state.doc.toString());
  assert(/role: \S+ # a b\.c\n/.test(text), `the line as typed in the embed: ${text.split('\n').find((l) => l.includes('role:'))}`);
  await page.waitForTimeout(slow(300));
  const clock = await frame.evaluate(() => ({
    ms: document.querySelector('output.clock')?.dataset.ms,
    playing: document.querySelector('button.play').getAttribute('aria-pressed'),
  }));
  const clocks = await page.evaluate(() => window.__clocks);
  assert(clock.ms === '0' && clock.playing === 'false' && !clocks.some((c) => c.playing),
    `the embed's clock did not move or play: ${JSON.stringify(clock)} ${JSON.stringify(clocks)}`);
  await ctx.close();
});

await test('the Karpenter version is chosen with the keyboard: it goes into the Cluster document, an older one refuses Balanced, Undo takes it back', async () => {
  const page = await freshPage();
  await page.selectOption('.lesson-picker select', 'karpenter-today');
  await page.waitForSelector('[data-lane="pool/general"]', { timeout: slow(20000) });
  const picker = page.locator('.version-picker select');
  await page.waitForFunction(() => document.querySelector('.version-picker select')?.value === 'v1.14', null, { timeout: slow(20000) });
  // Newest first: one step down is the minor before.
  await picker.focus();
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector('.problems .problem.error', { timeout: slow(10000) });
  const problem = await page.locator('.problems .problem.error').first().innerText();
  assert(/needs Karpenter v1\.14 or later/.test(problem) && /v1\.13/.test(problem), `v1.13 refuses Balanced: ${problem}`);
  await page.click('.doc-tab:has-text("Cluster")');
  assert(/version: v1\.13/.test(await editorText(page)), 'the choice is written into the Cluster document');
  // The last good cluster stays on screen while the manifests are refused.
  assert(await page.locator('[data-lane="pool/general"]').count() === 1, 'the cluster stays');
  await picker.focus();
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => !document.querySelector('.problems .problem.error'), null, { timeout: slow(10000) });
  assert(/version: v1\.14/.test(await editorText(page)), 'back to v1.14');
  // Ctrl+Z away from the editor takes back the last choice.
  await page.locator('.summary').click();
  await page.keyboard.press('Control+z');
  await page.waitForSelector('.problems .problem.error', { timeout: slow(10000) });
  await page.context().close();
});

await test('no errors in the console', async () => {
  assert(errors.length === 0, errors.join('\n'));
});

await browser.close();
server.close();
finish();
