// test-lane: alone (answers within the 500 ms readback budget at render.fps 1)
// At a low frame rate (render.fps: 1) a thumbnail job must not wait for the next frame: that wait alone (up to a
// second) passes the 500 ms readback budget. Jobs arriving between frames are drawn in the idle time at once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;

test.before(async () => {
  s = await startServer({ config: { render: { fps: 1 } } });
});
test.after(async () => {
  await s?.cleanup();
});

test('source thumbnails at render.fps 1: every new job answers 200, none 503 PREVIEW_TIMEOUT', async () => {
  const sources = (await req('GET', api('/sources'))).json().items as Array<{ id: string; kind: string }>;
  const ids = sources
    .filter((i) => i.id.startsWith('source:'))
    .map((i) => i.id)
    .slice(0, 4);
  assert.ok(ids.length >= 2, `generators listed: ${ids.join(', ')}`);
  const answers: string[] = [];
  // Each source and size is a new render job; requests are spread over several frame periods.
  for (const size of [64, 96]) {
    for (const id of ids) {
      const r = await req('GET', api(`/thumbnails/source/${id}?size=${size}`), { timeoutMs: 15000 });
      answers.push(`${id}@${size}: ${r.status}${r.status === 200 ? '' : ` ${r.text}`}`);
      await new Promise((resolve) => setTimeout(resolve, 170));
    }
  }
  assert.ok(
    answers.every((a) => / 200$/.test(a)),
    answers.join('\n'),
  );
});

test.run();
