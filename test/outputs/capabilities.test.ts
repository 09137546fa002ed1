// GET /capabilities names the output kinds this box can run: stream and record with an ffmpeg that has libx264,
// none with one that lacks it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, tempDir } from '../helpers/server.js';

// A display output on a display nothing serves and no sysfs, so neither `display` nor `v4l2` shows here; their
// detection has its own tests (display.test.ts, v4l2.test.ts).
const config = {
  live: {
    test: [{ id: 'red', name: 'Red', pattern: 'color=c=red:size=160x90:rate=10' }],
    streams: [],
    v4l2: { enabled: false, sysfsDir: '/nonexistent/video4linux' },
  },
  outputs: [{ id: 'proj', kind: 'display', enabled: false, display: ':9999' }],
};

test('an ffmpeg with libx264: stream and record, with the output and preview limits', async () => {
  const server = await startServer({ config });
  try {
    const b = (await req('GET', `${server.base}/api/v1/capabilities`)).json();
    assert.equal(b.outputs.kinds, ['stream', 'record']);
    assert.is(b.outputs.max, 8);
    assert.equal(b.outputs.preview, { clients: 16, sizeMin: 32, sizeMax: 1280, sizeDefault: 640, fpsMin: 1, fpsMax: 30, fpsDefault: 15 });
    for (const f of ['outputs', 'recordings', 'output-preview']) assert.ok(b.features.includes(f), f);
  } finally {
    await server.cleanup();
  }
});

test('an ffmpeg without libx264: no output kinds', async () => {
  const real = execFileSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).trim();
  const bin = await tempDir('vjd-fake-ffmpeg-');
  // Everything but the encoder list goes to the real ffmpeg, so live inputs still run.
  await writeFile(
    join(bin, 'ffmpeg'),
    `#!/bin/sh\nfor a in "$@"; do [ "$a" = "-encoders" ] && { echo " V....D mpeg4 MPEG-4 part 2"; exit 0; }; done\nexec ${real} "$@"\n`,
  );
  await chmod(join(bin, 'ffmpeg'), 0o755);
  const server = await startServer({ config, env: { PATH: `${bin}:${process.env.PATH}` } });
  try {
    const b = (await req('GET', `${server.base}/api/v1/capabilities`)).json();
    assert.equal(b.outputs.kinds, []);
  } finally {
    await server.cleanup();
  }
});

test.run();
