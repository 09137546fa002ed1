// Recording names from a request never reach the filesystem as paths: `../` in every spelling (raw, percent-encoded,
// double-encoded, backslash, absolute) answers an error, never a file outside the recordings folder, and DELETE
// never removes one. Decoys named like recordings sit next to the folder and at its parent, so a name that escaped
// the folder would find a file and answer 200.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, tempDir } from '../helpers/server.js';

const DECOY = 'evil-20260101T000000000Z.mkv';
const REAL = 'rec-20260101T000000000Z.mkv';

test('recording names with ../ in any encoding: 404 or 400, never a file outside the folder; DELETE removes nothing', async () => {
  const dataDir = await tempDir();
  const recordings = join(dataDir, 'recordings');
  await mkdir(join(recordings, 'sub'), { recursive: true });
  await writeFile(join(recordings, REAL), 'real recording');
  await writeFile(join(dataDir, DECOY), 'OUTSIDE the recordings folder');
  await writeFile(join(recordings, 'sub', DECOY), 'in a subfolder');
  const server = await startServer({ dataDir, config: { live: { test: [], streams: [], v4l2: { enabled: false } } } });
  try {
    const api = (p: string): string => `${server.base}/api/v1${p}`;
    assert.equal(
      (await req('GET', api('/recordings'))).json().items.map((i: { file: string }) => i.file),
      [REAL],
    );
    assert.is((await req('GET', api(`/recordings/${REAL}`))).text, 'real recording', 'the listed file is served');
    const names = [
      `../${DECOY}`,
      `..%2F${DECOY}`,
      `..%2f${DECOY}`,
      `%2e%2e%2f${DECOY}`,
      `%2E%2E/${DECOY}`,
      `..%252F${DECOY}`,
      `..%5C${DECOY}`,
      `..\\${DECOY}`,
      `sub%2F${DECOY}`,
      `sub/${DECOY}`,
      `%2F${encodeURIComponent(join(dataDir, DECOY).slice(1))}`,
      `.%2F${REAL}`,
      `${REAL}%2F..%2F..%2F${DECOY}`,
      '..',
      '%2e%2e',
    ];
    const seen = new Map<string, number>();
    for (const name of names) {
      for (const method of ['GET', 'DELETE'] as const) {
        const r = await req(method, api(`/recordings/${name}`));
        seen.set(`${method} ${name}`, r.status);
        assert.ok(r.status === 404 || r.status === 400, `${method} ${name}: ${r.status} ${r.text.slice(0, 200)}`);
        assert.not.match(r.text, /OUTSIDE|in a subfolder/, `${method} ${name} served a decoy`);
        assert.type(r.json().code, 'string', `${method} ${name}: an error body`);
      }
    }
    // The names that reach the route as one path segment are looked up in the listing: 404 ITEM_NOT_FOUND.
    for (const name of [`..%2F${DECOY}`, `%2e%2e%2f${DECOY}`, `..%5C${DECOY}`, `sub%2F${DECOY}`]) {
      const r = await req('GET', api(`/recordings/${name}`));
      assert.is(r.json().code, 'ITEM_NOT_FOUND', name);
      assert.equal(r.json().details.available, [REAL], name);
    }
    assert.equal((await readdir(dataDir)).includes(DECOY), true, 'the decoy outside is still there');
    assert.equal(await readdir(join(recordings, 'sub')), [DECOY], 'the decoy in the subfolder is still there');
    assert.equal((await readdir(recordings)).sort(), [REAL, 'sub'].sort());
  } finally {
    await server.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test.run();
