// Recordings: a file per enable under <dataDir>/recordings/, named <id>-<UTC timestamp>.mkv, whose length matches
// the frames sent, and one that stays readable when vjd is killed with SIGKILL mid-recording.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, waitUntil } from '../helpers/server.js';
import { probe } from './media.js';

const config = {
  live: { test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=320x180:rate=30' }], streams: [], v4l2: { enabled: false } },
};

test('a recording enabled for a while is a Matroska file as long as the frames sent; every enable a new file', async () => {
  const server = await startServer({
    config: { ...config, outputs: [{ id: 'rec', kind: 'record', enabled: false, width: 160, height: 90, fps: 10 }] },
  });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    const output = async () => (await req('GET', api('/outputs'))).json().items[0];
    for (let round = 1; round <= 2; round++) {
      const on = await req('POST', api('/outputs/enabled'), { body: { id: 'rec', enabled: true } });
      assert.is(on.status, 200, on.text);
      await waitUntil(async () => (await output()).framesSent >= 30, 30000);
      const off = await req('POST', api('/outputs/enabled'), { body: { name: 'REC', enabled: false } });
      assert.is(off.status, 200);
      await waitUntil(async () => (await output()).state === 'stopped', 10000);
      const o = await output();
      const files = (await readdir(join(server.dataDir, 'recordings'))).sort();
      assert.is(files.length, round, `one file per enable: ${files}`);
      assert.match(o.target, /^rec-\d{8}T\d{9}Z\.mkv$/);
      assert.is(files[round - 1], o.target);
      const p = await probe(join(server.dataDir, 'recordings', o.target));
      assert.equal([p.width, p.height], [160, 90]);
      // Every frame sent is in the file, at the output's fps (frames a full pipe dropped were never sent).
      assert.ok(Math.abs(p.frames - o.framesSent) <= 1, `frames in file ${p.frames} vs sent ${o.framesSent}`);
      // The file keeps true time: a slot a full pipe dropped is a gap in it, so its length is every slot, sent or not.
      const slots = p.frames + o.framesDropped;
      assert.ok(
        Math.abs(p.duration - slots / 10) <= 0.25,
        `duration ${p.duration} s for ${p.frames} frames + ${o.framesDropped} dropped at 10 fps`,
      );
    }
  } finally {
    await server.cleanup();
  }
});

test('a recording cut by SIGKILL of vjd is still readable', async () => {
  const server = await startServer({
    config: { ...config, outputs: [{ id: 'rec', kind: 'record', enabled: true, width: 160, height: 90, fps: 10 }] },
  });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    let target = '';
    await waitUntil(async () => {
      const o = (await req('GET', api('/outputs'))).json().items[0];
      target = o.target;
      return o.framesSent >= 40;
    }, 30000);
    await server.stop('SIGKILL');
    const file = join(server.dataDir, 'recordings', target);
    // ffmpeg dies with vjd (parent-death signal); the file holds every cluster written before that.
    let frames = 0;
    await waitUntil(async () => {
      frames = (await probe(file)).frames;
      return frames > 0;
    }, 10000);
    assert.ok(frames >= 10, `frames readable after SIGKILL: ${frames}`);
  } finally {
    await server.cleanup();
  }
});

test.run();
