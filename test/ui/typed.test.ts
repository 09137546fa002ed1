// The control page typed from the description: no `any` in web/src under a strict tsconfig (the generated types are
// compared with the served description by test/contract/client.test.ts), and the events subscription taken from the
// socket's hello (a hello naming other topics changes what the page subscribes to), in Chromium.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { ROOT, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded } from './browser.js';

let s: TestServer;
let browser: Browser;

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(p)));
    else if (/\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The code of a file without its comments and string literals, where a type could hide. */
const code = (text: string): string =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, '""');

test.before(async () => {
  s = await startServer();
  browser = await launch();
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('web/src has no `any` and compiles under a strict tsconfig', async () => {
  const files = await sources(join(ROOT, 'web', 'src'));
  assert.ok(
    files.some((f) => f.endsWith('api-types.d.ts')),
    'the generated types are in web/src',
  );
  for (const f of files) {
    const hits = code(await readFile(f, 'utf8')).match(/\bany\b/g);
    assert.is(hits, null, `${f} uses any`);
  }
  const cfg = JSON.parse(await readFile(join(ROOT, 'web', 'tsconfig.json'), 'utf8'));
  assert.is(cfg.compilerOptions.strict, true);
});

test('the subscription is the hello topics plus the opt-in ones the page shows', async () => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  let hello: string[] = [];
  const subscribed: string[][] = [];
  // Between the page and the server: the hello names a topic the server does not have and leaves one out.
  await page.routeWebSocket(/\/api\/v1\/events$/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((m) => {
      const msg = typeof m === 'string' ? JSON.parse(m) : null;
      if (msg?.type !== 'hello') return void ws.send(m);
      msg.topics = [...msg.topics.filter((t: string) => t !== 'library'), 'future'];
      hello = msg.topics;
      ws.send(JSON.stringify(msg));
    });
    ws.onMessage((m) => {
      const msg = typeof m === 'string' ? JSON.parse(m) : null;
      if (msg?.type !== 'subscribe') return void server.send(m);
      subscribed.push(msg.topics);
      server.send(JSON.stringify({ ...msg, topics: msg.topics.filter((t: string) => t !== 'future') }));
    });
  });
  await page.goto(`${s.base}/ui/`);
  await loaded(page);
  await waitUntil(() => subscribed.length > 0, 20000, 100);
  assert.ok(hello.length > 0, 'a hello arrived');
  // The layer strips and the scene row, shown at load, ask for their topics too.
  assert.equal([...subscribed[0]!].sort(), [...hello, 'status', 'thumbnail', 'audio', 'tempo', 'layers', 'scenes'].sort());
  await waitUntil(async () => (await page.getByTestId('link').innerText()) === 'live', 20000, 100);
  await ctx.close();
});

test.run();
