// IMPORTED images as GL textures, one per image file and context, shared by every program that names the file;
// a newer decode of the file (higher serial) re-uploads it in place, so running instances show the new image.
import type { IsfImported } from '../../src/shared/isf-types.js';
import type { GL } from './gl-util.js';
import { uploadRgba } from './targets.js';

export interface ImportedTexture {
  texture: WebGLTexture;
  width: number;
  height: number;
  serial: number;
  refs: number;
}

const perContext = new WeakMap<GL, Map<string, ImportedTexture>>();

function table(gl: GL): Map<string, ImportedTexture> {
  let t = perContext.get(gl);
  if (!t) {
    t = new Map();
    perContext.set(gl, t);
  }
  return t;
}

/** The shared texture of a decoded image (uploaded on first use or when `img` is newer); counted until released. */
export function acquireImported(
  gl: GL,
  img: Required<Pick<IsfImported, 'file' | 'pixels' | 'width' | 'height' | 'serial'>>,
): ImportedTexture {
  const t = table(gl);
  let entry = t.get(img.file);
  if (!entry) {
    const texture = gl.createTexture();
    if (!texture) throw new Error('createTexture failed (context lost?)');
    entry = { texture, width: 0, height: 0, serial: -1, refs: 0 };
    t.set(img.file, entry);
  }
  if (img.serial > entry.serial) {
    uploadRgba(gl, entry.texture, img.width, img.height, new Uint8Array(img.pixels));
    entry.width = img.width;
    entry.height = img.height;
    entry.serial = img.serial;
  }
  entry.refs++;
  return entry;
}

export function releaseImported(gl: GL, file: string, entry: ImportedTexture): void {
  entry.refs--;
  if (entry.refs > 0) return;
  gl.deleteTexture(entry.texture);
  if (table(gl).get(file) === entry) table(gl).delete(file);
}

/** Textures for every image of a descriptor; throws the first image's load error (the program cannot be made). */
export function acquireAll(gl: GL, images: readonly IsfImported[]): Map<string, { file: string; entry: ImportedTexture }> {
  const bad = images.find(
    (i) => i.error || !i.pixels || !i.file || i.width === undefined || i.height === undefined || i.serial === undefined,
  );
  if (bad) throw new Error(bad.error ?? `IMPORTED "${bad.name}": image "${bad.path}" was not loaded`);
  const out = new Map<string, { file: string; entry: ImportedTexture }>();
  for (const img of images) {
    out.set(img.name, {
      file: img.file!,
      entry: acquireImported(gl, { file: img.file!, pixels: img.pixels!, width: img.width!, height: img.height!, serial: img.serial! }),
    });
  }
  return out;
}
