// Crash-safe file replacement: write a temp file beside the target, fsync it, rename over the target, fsync the dir.
import { access, open, readdir, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pidAlive } from './pid-alive.js';

/**
 * Test-only fault injection: with VJD_TEST_HOOKS=1 and VJD_FAULT_DISK_FULL_WHILE=<flag file>, every write fails the
 * way a full disk makes it fail (part of the data reaches the temp file, then ENOSPC) while the flag file exists.
 * Used where the test cannot mount a small tmpfs (not root).
 */
async function diskFullInjected(): Promise<boolean> {
  const flag = process.env.VJD_FAULT_DISK_FULL_WHILE;
  if (!flag || process.env.VJD_TEST_HOOKS !== '1') return false;
  return access(flag).then(
    () => true,
    () => false,
  );
}

export async function atomicWriteFile(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(tmp, 'w', mode);
  try {
    if (await diskFullInjected()) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      await fh.write(bytes.subarray(0, bytes.length >> 1));
      throw Object.assign(new Error(`ENOSPC: no space left on device, write (injected by VJD_FAULT_DISK_FULL_WHILE)`), {
        code: 'ENOSPC',
        errno: -28,
        syscall: 'write',
      });
    }
    await fh.writeFile(data);
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  // Make the rename itself durable.
  try {
    const dir = await open(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // some filesystems refuse fsync on directories; the data file is already synced
  }
}

/**
 * Deletes the temp files a killed process left beside `path` (a SIGKILL between open and rename leaves one).
 * Call it before this process first writes `path`: its own pid then only names leftovers of an earlier process
 * that had the same pid (containers reuse them); temp files of other live processes are kept.
 */
export async function removeStaleTemps(path: string): Promise<number> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && pidAlive(pid)) continue;
    await unlink(join(dir, name)).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}
