// Decodes the images an ISF file IMPORTs, once per file version, into shared RGBA the render worker uploads.
// sharp decodes on libuv's threads, so the main thread only awaits; pure-JS decoders would block it per image.
import { realpath, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import sharp from 'sharp';
import { ISF_IMPORTED_LIMITS } from '../limits.js';
import type { IsfDescriptor, IsfImported } from '../shared/isf-types.js';
import type { Logger } from '../log.js';
import { readRegularFile, RegularFileError } from '../util/regular-file.js';

interface Decoded {
  pixels: SharedArrayBuffer;
  width: number;
  height: number;
  serial: number;
}

interface Entry {
  /** What the file was when decoded (inode, size, mtime): another stamp means the file changed. */
  stamp: string;
  result: Promise<Decoded | { error: string }>;
}

const FORMATS = new Set(['png', 'jpeg', 'webp']);
const MiB = 1024 * 1024;

export class ImportedImages {
  private readonly cache = new Map<string, Entry>();
  private serial = 0;
  private used = new Set<string>();

  constructor(private readonly log: Logger) {}

  /** Resolves and decodes every image `desc` imports, setting each one's pixels or error (in place). */
  async load(desc: IsfDescriptor, dir: string): Promise<void> {
    for (const img of desc.imported ?? []) {
      if (img.error) continue;
      const out = await this.one(img, dir).catch((err: Error) => ({ error: err.message }));
      if ('error' in out) img.error = `IMPORTED "${img.name}": image "${img.path}" ${out.error}`;
      else Object.assign(img, out);
    }
  }

  /** Forgets decodes no file used since the last sweep, so a changed or removed image frees its memory. */
  sweep(): void {
    for (const file of this.cache.keys()) if (!this.used.has(file)) this.cache.delete(file);
    this.used = new Set();
  }

  private async one(img: IsfImported, dir: string): Promise<(Decoded & { file: string }) | { error: string }> {
    const folder = await realpath(dir);
    let file: string;
    try {
      file = await realpath(resolve(folder, img.path));
    } catch {
      return { error: 'was not found beside the shader' };
    }
    // realpath follows links, so a link pointing out of the folder is caught here too.
    if (!file.startsWith(folder + sep)) return { error: "leaves the shader's folder" };
    const s = await stat(file);
    if (!s.isFile()) return { error: 'is not a regular file' };
    if (s.size > ISF_IMPORTED_LIMITS.maxFileBytes) return { error: `is larger than ${ISF_IMPORTED_LIMITS.maxFileBytes / MiB} MiB` };
    this.used.add(file);
    const stamp = `${s.ino}:${s.size}:${s.mtimeMs}`;
    let entry = this.cache.get(file);
    if (!entry || entry.stamp !== stamp) {
      entry = { stamp, result: this.decode(file).catch((err: Error) => ({ error: `could not be decoded: ${err.message}` })) };
      this.cache.set(file, entry);
    }
    const r = await entry.result;
    return 'error' in r ? r : { ...r, file };
  }

  private async decode(file: string): Promise<Decoded | { error: string }> {
    const L = ISF_IMPORTED_LIMITS;
    const options = { limitInputPixels: L.maxSide * L.maxSide, failOn: 'error' as const };
    // Read here rather than by path in sharp: the checked file could be swapped for a pipe before the decoder opens it.
    let bytes: Buffer;
    try {
      bytes = await readRegularFile(file, L.maxFileBytes);
    } catch (err) {
      if (err instanceof RegularFileError) return { error: `is ${err.message}` };
      throw err;
    }
    const meta = await sharp(bytes, options).metadata();
    if (!meta.format || !FORMATS.has(meta.format)) return { error: `is not a PNG, JPEG or WebP image (${meta.format ?? 'unknown'})` };
    const w = meta.width ?? 0;
    const h = meta.height ?? 0;
    if (w < 1 || h < 1 || w > L.maxSide || h > L.maxSide) return { error: `is ${w}×${h}; at most ${L.maxSide}×${L.maxSide}` };
    if (w * h * 4 > L.maxDecodedBytes) return { error: `is ${w}×${h}, over ${L.maxDecodedBytes / MiB} MiB decoded` };
    // GL reads a texture's first row as its bottom, so the image is flipped here rather than in the worker.
    const { data, info } = await sharp(bytes, options).autoOrient().flip().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 4 || data.length !== info.width * info.height * 4) return { error: 'decoded to an unexpected layout' };
    const pixels = new SharedArrayBuffer(data.length);
    new Uint8Array(pixels).set(data);
    this.serial += 1;
    this.log.info({ file, width: info.width, height: info.height }, 'imported image decoded');
    return { pixels, width: info.width, height: info.height, serial: this.serial };
  }
}
