// readRegularFile: a regular file within the limit comes whole; a pipe, socket or folder is refused at once (never
// opened the blocking way), an oversized file unread.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRegularFile, readRegularText, RegularFileError } from '../../src/util/regular-file.js';

const root = await mkdtemp(join(tmpdir(), 'vjd-regular-'));

async function refusal(path: string, max: number): Promise<RegularFileError> {
  const err = await readRegularFile(path, max).then(
    () => null,
    (e: unknown) => e,
  );
  assert.instance(err, RegularFileError, `${path}: ${String(err)}`);
  return err as RegularFileError;
}

test('a regular file within the limit comes whole, also at exactly the limit', async () => {
  const file = join(root, 'ok.txt');
  await writeFile(file, 'hello');
  assert.is(await readRegularText(file, 1024), 'hello');
  assert.is((await readRegularFile(file, 5)).toString(), 'hello');
  await writeFile(join(root, 'empty'), '');
  assert.is((await readRegularFile(join(root, 'empty'), 0)).length, 0);
});

test('a file over the limit is refused with its size and the limit', async () => {
  const file = join(root, 'big.bin');
  await writeFile(file, Buffer.alloc(100));
  const err = await refusal(file, 99);
  assert.is(err.code, 'too-large');
  assert.is(err.size, 100);
  assert.is(err.limit, 99);
  assert.is(err.path, file);
});

test('a pipe, a folder and a socket are refused as not a file', async () => {
  const fifo = join(root, 'pipe.json');
  execFileSync('mkfifo', [fifo]);
  // A blocking open of the pipe would never return: reaching the assertion is the check.
  assert.is((await refusal(fifo, 1024)).code, 'not-a-file');
  const dir = join(root, 'folder.json');
  await mkdir(dir);
  assert.is((await refusal(dir, 1024)).code, 'not-a-file');
  const sock = join(root, 'sock.json');
  const server = createServer();
  await new Promise<void>((r) => server.listen(sock, r));
  try {
    assert.is((await refusal(sock, 1024)).code, 'not-a-file');
  } finally {
    server.close();
  }
});

test('a missing file keeps its errno error', async () => {
  const err = (await readRegularFile(join(root, 'none'), 10).catch((e: unknown) => e)) as NodeJS.ErrnoException;
  assert.is(err.code, 'ENOENT');
});

test.after(async () => {
  await rm(root, { recursive: true, force: true });
});

test.run();
