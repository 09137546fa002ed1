// test-lane: alone (compares a recording's length with the wall clock)
// A recording enabled for about 10 s lasts as long as it was enabled: ffprobe's duration is within 3 % of the wall
// time from the output's startedAt (when its ffmpeg was spawned and its frame clock started) to the disable
// request, at the configured fps (25, not the render's 30).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startServer, req, sleep, waitUntil } from '../helpers/server.js';
import { run } from './media.js';

const FPS = 25;
const config = {
  live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
  outputs: [{ id: 'rec', kind: 'record', enabled: false, width: 160, height: 90, fps: FPS }],
};

test('a 10 s recording: duration within 3 % of the wall time between enable and disable, at the configured fps', async () => {
  const server = await startServer({ config });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    const output = async () => (await req('GET', api('/outputs'))).json().items[0];
    assert.is((await req('POST', api('/sources/select'), { body: { id: 'red' } })).status, 200);
    assert.is((await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: true } })).status, 200);
    let startedAt = NaN;
    await waitUntil(async () => Number.isFinite((startedAt = Date.parse((await output()).startedAt ?? ''))), 20000);
    // The recording's length is what is measured here; the wait itself assumes no speed.
    await sleep(Math.max(0, startedAt + 10_000 - Date.now()));
    const sentAt = Date.now();
    const off = await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: false } });
    const answeredAt = Date.now();
    assert.is(off.status, 200);
    await waitUntil(async () => (await output()).state === 'stopped', 20000);
    const o = await output();

    const file = join(server.dataDir, 'recordings', o.target);
    const r = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=r_frame_rate,avg_frame_rate:format=duration',
      '-of',
      'json',
      file,
    ]);
    assert.is(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { streams: Array<{ r_frame_rate: string; avg_frame_rate: string }>; format: { duration: string } };
    const duration = Number(j.format.duration);
    const rate = (s: string): number => {
      const [n, d] = s.split('/').map(Number);
      return n! / (d || 1);
    };
    assert.is(rate(j.streams[0]!.r_frame_rate), FPS, `r_frame_rate ${j.streams[0]!.r_frame_rate}`);
    assert.ok(Math.abs(rate(j.streams[0]!.avg_frame_rate) - FPS) < 0.5, `avg_frame_rate ${j.streams[0]!.avg_frame_rate}`);
    // The stop took effect somewhere between the disable request and its answer (or just after, in the worker):
    // the wall time is bracketed by both, each end with 3 % slack.
    const lo = ((sentAt - startedAt) / 1000) * 0.97;
    const hi = ((answeredAt - startedAt) / 1000) * 1.03;
    const counts = `sent ${o.framesSent}, dropped ${o.framesDropped}, repeated ${o.framesRepeated}`;
    assert.ok(
      duration >= lo && duration <= hi,
      `duration ${duration} s vs wall ${(sentAt - startedAt) / 1000}-${(answeredAt - startedAt) / 1000} s (${counts})`,
    );
  } finally {
    await server.cleanup();
  }
});

test.run();
