// The recordings folder from the config file (`recordings.dir`, relative to dataDir): a recording lands there
// and GET /recordings lists it; a browser may send Range and read Content-Range, Accept-Ranges, Content-Length.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, waitUntil } from '../helpers/server.js';

test('a recording lands in recordings.dir, is listed and served with CORS range headers', async () => {
  const server = await startServer({
    config: {
      render: { width: 160, height: 90, fps: 30 },
      live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=160x90:rate=30' }], streams: [], v4l2: { enabled: false } },
      recordings: { dir: 'show/clips' },
      outputs: [{ id: 'rec', kind: 'record', enabled: true, fps: 10 }],
    },
  });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    const output = async () => (await req('GET', api('/outputs'))).json().items[0];
    await waitUntil(async () => (await output()).framesSent >= 20, 30000);
    assert.is((await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: false } })).status, 200);
    await waitUntil(async () => (await output()).state === 'stopped', 10000);
    const file = (await output()).target as string;
    const dir = join(server.dataDir, 'show', 'clips');
    assert.equal(await readdir(dir), [file]);
    assert.not.ok(existsSync(join(server.dataDir, 'recordings')), 'nothing in the default folder');
    const list = (await req('GET', api('/recordings'))).json();
    assert.equal(
      list.items.map((r: any) => r.file),
      [file],
    );
    await waitUntil(async () => (await req('GET', api('/recordings'))).json().items[0].complete === true, 10000);

    const pre = await req('OPTIONS', api(`/recordings/${file}`), {
      headers: {
        origin: 'http://panel.local',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'range,x-api-key',
      },
    });
    assert.is(pre.status, 204);
    assert.match(String(pre.headers['access-control-allow-headers']), /(^|, )Range(,|$)/);

    const part = await req('GET', api(`/recordings/${file}`), { headers: { origin: 'http://panel.local', range: 'bytes=0-99' } });
    assert.is(part.status, 206);
    assert.is(part.body.length, 100);
    assert.is(part.headers['access-control-allow-origin'], '*');
    const exposed = String(part.headers['access-control-expose-headers']).split(/,\s*/);
    for (const h of ['Content-Range', 'Accept-Ranges', 'Content-Length']) assert.ok(exposed.includes(h), `${h} exposed: ${exposed}`);
    assert.match(String(part.headers['content-range']), /^bytes 0-99\/\d+$/);
  } finally {
    await server.cleanup();
  }
});

test.run();
