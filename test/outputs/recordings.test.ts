// Recordings routes: the listing (complete or being written, ffprobe duration), downloads with byte ranges
// streamed from disk under backpressure, deletes (409 while written), and names that are not listed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, sleep, waitUntil } from '../helpers/server.js';

const config = {
  live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
  outputs: [{ id: 'rec', kind: 'record', enabled: true, width: 160, height: 90, fps: 10 }],
};

/** Reads a response slowly: nothing for a while (the server's socket buffer fills), then everything. */
function slowGet(url: string, pauseMs: number): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const r = httpRequest(url, { agent: false }, (res) => {
      res.pause();
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
      setTimeout(() => res.resume(), pauseMs);
    });
    r.on('error', reject);
    r.end();
  });
}

test('recordings: listed while written (409 on delete), then complete with a duration; downloads, ranges, deletes', async () => {
  const server = await startServer({ config });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    const output = async () => (await req('GET', api('/outputs'))).json().items[0];
    await waitUntil(async () => (await output()).framesSent >= 30, 30000);
    const file = (await output()).target as string;

    const writing = (await req('GET', api('/recordings'))).json();
    assert.is(writing.count, 1);
    assert.is(writing.items[0].file, file);
    assert.is(writing.items[0].outputId, 'rec');
    assert.is(writing.items[0].complete, false);
    assert.is(writing.items[0].durationSeconds, null);
    const busy = await req('DELETE', api(`/recordings/${file}`));
    assert.is(busy.status, 409, busy.text);
    assert.is(busy.json().code, 'RECORDING_ACTIVE');

    assert.is((await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: false } })).status, 200);
    await waitUntil(async () => (await output()).state === 'stopped', 10000);
    let item: { file: string; startedAt: string; durationSeconds: number | null; bytes: number; complete: boolean } | undefined;
    await waitUntil(async () => {
      item = (await req('GET', api('/recordings'))).json().items[0];
      return item?.complete === true;
    }, 10000);
    const onDisk = await readFile(join(server.dataDir, 'recordings', file));
    assert.is(item!.bytes, onDisk.byteLength);
    assert.ok(item!.durationSeconds !== null && item!.durationSeconds >= 2, `duration ${item!.durationSeconds}`);
    assert.ok(Math.abs(Date.parse(item!.startedAt) - Date.parse((await output()).startedAt)) < 60_000, item!.startedAt);

    const whole = await req('GET', api(`/recordings/${file}`));
    assert.is(whole.status, 200);
    assert.is(whole.headers['content-type'], 'video/x-matroska');
    assert.is(whole.headers['accept-ranges'], 'bytes');
    assert.ok(whole.body.equals(onDisk), 'the download is the file');
    const head = await req('HEAD', api(`/recordings/${file}`));
    assert.is(head.status, 200);
    assert.is(head.headers['content-length'], String(onDisk.byteLength));

    const part = await req('GET', api(`/recordings/${file}`), { headers: { range: 'bytes=10-109' } });
    assert.is(part.status, 206);
    assert.is(part.headers['content-range'], `bytes 10-109/${onDisk.byteLength}`);
    assert.ok(part.body.equals(onDisk.subarray(10, 110)), 'bytes 10-109');
    const tail = await req('GET', api(`/recordings/${file}`), { headers: { range: 'bytes=-50' } });
    assert.is(tail.status, 206);
    assert.ok(tail.body.equals(onDisk.subarray(onDisk.byteLength - 50)), 'the last 50 bytes');
    const past = await req('GET', api(`/recordings/${file}`), { headers: { range: `bytes=${onDisk.byteLength}-` } });
    assert.is(past.status, 416);
    assert.is(past.json().code, 'RANGE_NOT_SATISFIABLE');
    assert.is(past.headers['content-range'], `bytes */${onDisk.byteLength}`);

    for (const name of ['nope.mkv', '..%2Fconfig.json', '..%2F..%2Fetc%2Fpasswd', `${file}%00`, 'rec-20260101T000000000Z.mkv']) {
      const r = await req('GET', api(`/recordings/${name}`));
      assert.is(r.status, 404, name);
      assert.is(r.json().code, 'ITEM_NOT_FOUND', name);
      assert.equal(r.json().details.available, [file], name);
      assert.is((await req('DELETE', api(`/recordings/${name}`))).status, 404, name);
    }

    const gone = await req('DELETE', api(`/recordings/${file}`));
    assert.is(gone.status, 200, gone.text);
    assert.is(gone.json().removed.file, file);
    assert.equal(await readdir(join(server.dataDir, 'recordings')), []);
    assert.is((await req('GET', api('/recordings'))).json().count, 0);
    assert.is((await req('DELETE', api(`/recordings/${file}`))).status, 404);
  } finally {
    await server.cleanup();
  }
});

test('a large recording streams to a slow reader intact while the API keeps answering', async () => {
  const server = await startServer({ config: { ...config, outputs: [{ id: 'rec', kind: 'record', enabled: false }] } });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    // Enabling creates the folder; a file of the record kind's name pattern is a recording as far as the listing goes.
    assert.is((await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: true } })).status, 200);
    assert.is((await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: false } })).status, 200);
    const big = randomBytes(48 * 1024 * 1024);
    const name = 'big-20260101T000000000Z.mkv';
    await writeFile(join(server.dataDir, 'recordings', name), big);
    const listed = (await req('GET', api('/recordings'))).json().items.find((i: { file: string }) => i.file === name);
    assert.is(listed.bytes, big.byteLength);
    assert.is(listed.durationSeconds, null, 'not a Matroska file: no duration');

    const slow = slowGet(api(`/recordings/${name}`), 1500);
    // While the download waits on the reader, other requests are answered.
    await sleep(300);
    assert.is((await req('GET', api('/status'))).status, 200);
    const r = await slow;
    assert.is(r.status, 200);
    assert.is(r.headers['content-length'], String(big.byteLength));
    assert.is(createHash('sha256').update(r.body).digest('hex'), createHash('sha256').update(big).digest('hex'));

    const part = await slowGet(`${api(`/recordings/${name}`)}`, 0);
    assert.is(part.body.byteLength, big.byteLength);
  } finally {
    await server.cleanup();
  }
});

test('DELETE is a method of its own: preflight lists it, other methods answer 405 with it in Allow', async () => {
  const server = await startServer({ config });
  try {
    const url = `${server.base}/api/v1/recordings/x.mkv`;
    const pre = await req('OPTIONS', url, { headers: { origin: 'http://panel.example', 'access-control-request-method': 'DELETE' } });
    assert.is(pre.status, 204);
    assert.match(String(pre.headers['access-control-allow-methods']), /\bDELETE\b/);
    const wrong = await req('POST', url, { body: {} });
    assert.is(wrong.status, 405);
    assert.is(wrong.headers['allow'], 'GET, DELETE, HEAD, OPTIONS');
    const list = await req('DELETE', `${server.base}/api/v1/recordings`);
    assert.is(list.status, 405);
    assert.is(list.headers['allow'], 'GET, HEAD, OPTIONS');
  } finally {
    await server.cleanup();
  }
});

test.run();
