// Measures the page's YAML editor in headless Chromium (not a test: figures for the book's Performance chapter).
//
//   node tests/browser/editor-bench.mjs [dist]
//
// - typing in a 5,000-line document: 30 keys typed at the end of line 2,500 of a ConfigMap, one
//   every 120 ms; for each, the time from the key to the next frame (the key on screen);
//   median and worst, with the CPU at full speed and 4x slower (CDP, as Lighthouse's mobile
//   profile);
// - a 2 MB paste (a ConfigMap of varied lines, one change as a paste makes): the longest wait
//   between two frames over the 4 s after it and the main-thread tasks over 50 ms (`longtask`).
import { launch, live, editorReady, fillEditor } from './harness.mjs';
import { serve } from './server.mjs';

const dist = process.argv[2] || 'dist';
const { server, url } = await serve(dist, '/');
const browser = await launch();

function configMap(lines, bytes) {
  const out = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: big', 'data:'];
  for (let i = 0, size = out.join('\n').length; (lines && out.length < lines) || (bytes && size < bytes); i++) {
    out.push(`  key-${i.toString(36)}: "${(i * 2654435761 % 4294967296).toString(16)} value ${i}"`);
    size += out[out.length - 1].length + 1;
  }
  return out.join('\n') + '\n';
}

async function page(cpu) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const p = await ctx.newPage();
  if (cpu > 1) await (await ctx.newCDPSession(p)).send('Emulation.setCPUThrottlingRate', { rate: cpu });
  await p.goto(url);
  await live(p, 60000);
  await p.selectOption('.lesson-picker select', 'blank');
  await editorReady(p);
  return { ctx, p };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const cpu of [1, 4]) {
  const { ctx, p } = await page(cpu);
  await fillEditor(p, configMap(5000));
  const times = await p.evaluate(async () => {
    const { view } = document.querySelector('.pane.manifests .editor').kpgEditor;
    const line = view.state.doc.line(2500);
    view.dispatch({ selection: { anchor: line.to }, scrollIntoView: true });
    view.focus();
    await new Promise((r) => setTimeout(r, 500));
    const out = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      // What CodeMirror does with a key typed: one transaction at the caret.
      view.dispatch(view.state.replaceSelection('x'), { userEvent: 'input.type' });
      await new Promise((r) => requestAnimationFrame(() => r()));
      out.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 120));
    }
    return out;
  });
  console.log(`typing in 5,000 lines, CPU ${cpu}x: median ${median(times).toFixed(1)} ms, worst ${Math.max(...times).toFixed(1)} ms from a key to its frame`);
  await ctx.close();
}

for (const cpu of [1, 4]) {
  const { ctx, p } = await page(cpu);
  const text = configMap(0, 2_000_000);
  const felt = await p.evaluate(async (text) => {
    const gaps = [];
    const long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) long.push(Math.round(e.duration)); }).observe({ type: 'longtask' });
    let last = performance.now();
    let running = true;
    const frame = () => { const now = performance.now(); gaps.push(now - last); last = now; if (running) requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
    const { view } = document.querySelector('.pane.manifests .editor').kpgEditor;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: 'input.paste' });
    await new Promise((r) => setTimeout(r, 4000));
    running = false;
    return { longestGap: Math.round(Math.max(...gaps)), long };
  }, text);
  console.log(`a 2 MB paste, CPU ${cpu}x: longest wait between two frames ${felt.longestGap} ms; tasks over 50 ms: ${felt.long.join(', ') || 'none'} ms`);
  await ctx.close();
}

await browser.close();
server.close();
