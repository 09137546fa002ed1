// Reading a file from a folder vjd watches or an operator fills: only a regular file, only up to a size.
// A named pipe (or a device node) opened the ordinary way parks one of libuv's four file threads until a
// writer shows up, and a few of them stall every other file operation of the process (state saves among
// them). O_NONBLOCK makes the open return at once whatever the node is; the type check on the open handle
// (not on the path, which could be swapped between a stat and the open) then refuses anything but a file.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

export type RegularFileProblem = 'not-a-file' | 'too-large';

/** Why a path was refused; `code` is stable for logs and tests. */
export class RegularFileError extends Error {
  constructor(
    readonly code: RegularFileProblem,
    readonly path: string,
    readonly size?: number,
    readonly limit?: number,
  ) {
    super(code === 'not-a-file' ? 'not a regular file' : `larger than the limit (${size} bytes; at most ${limit})`);
  }
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);

/**
 * The whole content of a regular file of at most `maxBytes`. Throws RegularFileError for a pipe, socket,
 * device or directory, or a file over the limit (also when it grew past it while being read), and the
 * usual errno errors (ENOENT, EACCES) otherwise.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  const fh = await open(path, OPEN_FLAGS).catch((err: NodeJS.ErrnoException) => {
    // A socket cannot be opened at all (ENXIO): the same refusal as a pipe, not an I/O failure.
    throw err.code === 'ENXIO' ? new RegularFileError('not-a-file', path) : err;
  });
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new RegularFileError('not-a-file', path);
    if (st.size > maxBytes) throw new RegularFileError('too-large', path, st.size, maxBytes);
    // One byte of room past the size tells a file that grew since the stat; it is read on up to one byte past
    // the limit, so one that grew past it is refused rather than read whole, and one still within it comes whole.
    let buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (buf.length > maxBytes) break;
        const bigger = Buffer.alloc(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(bigger, 0, 0, got);
        buf = bigger;
      }
      const { bytesRead } = await fh.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    if (got > maxBytes) throw new RegularFileError('too-large', path, got, maxBytes);
    return buf.subarray(0, got);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

export async function readRegularText(path: string, maxBytes: number): Promise<string> {
  return (await readRegularFile(path, maxBytes)).toString('utf8');
}
