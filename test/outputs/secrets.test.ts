// Stream credentials over HTTP: outputs whose URLs carry an SRT passphrase (spelled in several ways), an SRT
// access-control stream id, an RTMP key as the last path segment and userinfo; ffmpeg fails on each (nothing
// listens), and neither GET /outputs (target, lastError), the enable answer nor the log shows any secret.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { freeUdpPort } from './media.js';

let server: TestServer;
const api = (p: string): string => `${server.base}/api/v1${p}`;
const SECRETS = ['Srt5ecretPass', 'UpperCaseP4ss', 'StreamIdS3ssion', 'streamuser77', 'RtmpLastKey42', 'hunter2pw'];

test.before(async () => {
  const [a, b, c] = [await freeUdpPort(), await freeUdpPort(), await freeUdpPort()];
  const stream = (id: string, url: string) => ({ id, kind: 'stream', enabled: true, url, width: 64, height: 36, fps: 5 });
  server = await startServer({
    config: {
      live: { test: [], streams: [], v4l2: { enabled: false } },
      outputs: [
        stream('srt-enc', `srt://127.0.0.1:${a}?mode=caller&connect_timeout=500&pass%70hrase=${SECRETS[0]}`),
        stream('srt-upper', `srt://127.0.0.1:${b}?mode=caller&connect_timeout=500&PASSPHRASE=${SECRETS[1]}`),
        stream('srt-sid', `srt://127.0.0.1:${c}?mode=caller&connect_timeout=500&streamid=#!::r=live/x,u=${SECRETS[3]},s=${SECRETS[2]}`),
        stream('rtmp-key', `rtmp://127.0.0.1:1/app/inst/${SECRETS[4]}`),
        stream('rtmp-user', `rtmp://bob:${SECRETS[5]}@127.0.0.1:1/live/${SECRETS[4]}`),
      ],
    },
  });
});

test.after(async () => {
  await server?.cleanup();
});

function assertHidden(text: string, where: string): void {
  for (const s of SECRETS) assert.not.ok(text.includes(s), `${where} shows ${s}`);
}

test('GET /outputs, the enable answer and the log never show a stream secret', async () => {
  let text = '';
  // Every ffmpeg has failed at least once: its error line is the lastError shown.
  await waitUntil(async () => {
    const r = await req('GET', api('/outputs'));
    text = r.text;
    return (r.json().items as Array<{ lastError: string | null }>).every((o) => typeof o.lastError === 'string');
  }, 60000);
  assertHidden(text, 'GET /outputs');
  const items = JSON.parse(text).items as Array<{ id: string; target: string }>;
  const target = (id: string): string => items.find((o) => o.id === id)!.target;
  assert.match(target('srt-enc'), /pass%70hrase=\*\*\*$/);
  assert.match(target('srt-upper'), /PASSPHRASE=\*\*\*$/);
  assert.match(target('srt-sid'), /streamid=\*\*\*$/);
  assert.is(target('rtmp-key'), 'rtmp://127.0.0.1:1/app/inst/***');
  assert.is(target('rtmp-user'), 'rtmp://***@127.0.0.1:1/live/***');
  for (const id of ['srt-sid', 'rtmp-key']) {
    const r = await req('POST', api('/outputs/enabled'), { body: { id, enabled: false } });
    assert.is(r.status, 200, r.text);
    assertHidden(r.text, `POST /outputs/enabled ${id}`);
  }
  assertHidden(server.logs(), 'the log');
});

test.run();
