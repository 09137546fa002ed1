// Links in the recordings folder are not recordings: a symlink named like one (to a file outside the folder, or
// to a real recording next to it) is not listed, and GET and DELETE answer 404 as for a missing recording,
// leaving both the link and what it points at alone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lstat, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, tempDir } from '../helpers/server.js';

const REAL = 'rec-20260101T000000000Z.mkv';
const OUT_LINK = 'link-20260102T000000000Z.mkv';
const IN_LINK = 'alias-20260103T000000000Z.mkv';

test('a symlink named like a recording is neither listed, served nor deleted', async () => {
  const dataDir = await tempDir();
  const recordings = join(dataDir, 'recordings');
  const outside = join(dataDir, 'outside.mkv');
  await mkdir(recordings, { recursive: true });
  await writeFile(join(recordings, REAL), 'real recording');
  await writeFile(outside, 'OUTSIDE the recordings folder');
  await symlink(outside, join(recordings, OUT_LINK));
  await symlink(join(recordings, REAL), join(recordings, IN_LINK));
  const server = await startServer({ dataDir, config: { live: { test: [], streams: [], v4l2: { enabled: false } } } });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    const list = (await req('GET', api('/recordings'))).json();
    assert.equal(
      list.items.map((i: { file: string }) => i.file),
      [REAL],
    );
    assert.is(list.count, 1);
    assert.is((await req('GET', api(`/recordings/${REAL}`))).text, 'real recording', 'the regular file is served');
    for (const name of [OUT_LINK, IN_LINK]) {
      for (const [method, headers] of [
        ['GET', {}],
        ['GET', { range: 'bytes=0-3' }],
        ['DELETE', {}],
      ] as const) {
        const r = await req(method, api(`/recordings/${name}`), { headers });
        assert.is(r.status, 404, `${method} ${name}: ${r.status} ${r.text.slice(0, 200)}`);
        assert.is(r.json().code, 'ITEM_NOT_FOUND');
        assert.equal(r.json().details.available, [REAL]);
        assert.not.match(r.text, /OUTSIDE|real recording/);
      }
      assert.ok((await lstat(join(recordings, name))).isSymbolicLink(), `${name} is left alone`);
    }
    assert.is(await readFile(outside, 'utf8'), 'OUTSIDE the recordings folder');
    assert.is(await readFile(join(recordings, REAL), 'utf8'), 'real recording');
  } finally {
    await server.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test.run();
