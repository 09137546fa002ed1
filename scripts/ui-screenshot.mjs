#!/usr/bin/env node
// The pictures of the control page in README.md and docs/control-page.md: starts a real vjd (the test helper: own data
// folder, own port), puts it in a show-like state over HTTP (a generator on program, another cued, three effects, a
// palette, a stream output),
// opens the page in Debian Chromium at 1280x800 (and 390x844) and writes palette-quantised PNGs into docs/.
// Run after `npm run build`: node scripts/ui-screenshot.mjs
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startServer, req, waitUntil } = await import(join(root, 'dist/test/helpers/server.js'));
const { launch, loaded, LAPTOP, PHONE } = await import(join(root, 'dist/test/ui/browser.js'));

const s = await startServer({ config: { render: { width: 640, height: 360, fps: 30 } } });
const browser = await launch();
try {
  const api = async (method, path, body) => {
    const r = await req(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 15000 });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return r.json();
  };
  await api('POST', '/mix/cue', { id: 'source:tunnel' });
  await api('POST', '/mix/take', { transition: 'cut' });
  await api('POST', '/mix/cue', { id: 'source:plasma' });
  await api('POST', '/palettes/select', { id: 'neon-club' });
  for (const type of ['kaleidoscope', 'color_tint', 'bloom']) await api('POST', '/effects/add', { type });
  await api('POST', '/effects/params', { index: 1, values: { segments: 8, spin: 12 } });
  await api('POST', '/outputs/add', { kind: 'stream', name: 'LED wall', url: 'udp://127.0.0.1:5004' });

  for (const [viewport, file] of [
    [LAPTOP, 'control-page.png'],
    [PHONE, 'control-page-phone.png'],
  ]) {
    const ctx = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    await page.goto(`${s.base}/ui/`);
    await loaded(page);
    // Every effect's parameters show without a click: wait until all three have their inputs.
    await waitUntil(async () => (await page.locator('.chain .params').count()) === 3, 20000, 100);
    await waitUntil(async () => ((await page.getByTestId('program-img').getAttribute('src')) ?? '').startsWith('blob:'), 20000, 100);
    await waitUntil(async () => /running/.test(await page.locator('li.out').first().innerText()), 20000, 200);
    // The status topic (once a second) has counted this page's own socket.
    await waitUntil(async () => /^[1-9]\d* clients? connected$/.test(await page.getByTestId('clients').innerText()), 20000, 200);
    await page.evaluate(() => globalThis.scrollTo(0, 0));
    await page.mouse.move(0, 0);
    const png = await page.screenshot({ fullPage: false });
    const out = join(root, 'docs', file);
    const info = await sharp(png).png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 }).toFile(out);
    console.log(`${out}: ${info.width}x${info.height}, ${(info.size / 1024).toFixed(0)} KiB`);
    await ctx.close();
  }
} finally {
  await browser.close();
  await s.cleanup();
}
