// Encode pool task (piscina): turns thumbnail slots, placeholder cards, palette swatches and poster files into PNG/JPEG bytes.
import { existsSync } from 'node:fs';
import { endianness } from 'node:os';
import { fileURLToPath } from 'node:url';
import { constants as zlibConstants, crc32, deflateSync } from 'node:zlib';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import sharp, { type JpegOptions } from 'sharp';
import type { EncodeResult, EncodeTask, ImageFormat } from '../../src/shared/protocol/encode.js';
import { boxScaledProgram, newestProgramFrame, scaledProgram } from './program-ring.js';
import { lowerThisThread, THREAD_NICE } from '../../src/shared/thread-priority.js';

// Each pool thread runs this module once: thumbnails and previews yield a core to the main thread and the render.
lowerThisThread(THREAD_NICE.encodePool);

// The pool runs one task per thread; libvips threads of its own would only fight the other pool threads.
sharp.concurrency(1);
sharp.cache(false);

/** Largest edge accepted; far above any thumbnail box, low enough that a bad request cannot ask for gigabytes. */
const MAX_EDGE = 8192;
/** Chosen by bench/encode.ts: without mozjpeg's trellis and Huffman optimisation a 512 px frame encodes ~1.6× faster for ~8 % more bytes. */
const JPEG_OPTIONS: JpegOptions = {
  quality: 80,
  chromaSubsampling: '4:2:0',
  mozjpeg: false,
  trellisQuantisation: false,
  overshootDeringing: false,
  optimiseScans: false,
  optimiseCoding: false,
  progressive: false,
};
/**
 * PNG goes through node:zlib instead of sharp: libvips' PNG writer took 5–7 ms at 512×288 at its fastest settings
 * (bench/encode.ts). After the Up filter the deflate strategy is picked per image from how repetitive the filtered
 * pixels are: show frames (gradients, footage, noise) go Huffman-only, which measured ~20 % faster than run-length
 * deflate at the same size on them (2.4 vs 3.0 ms at 512×288), while flat cards, bars and mostly-black frames go
 * run-length, which squeezes their repeated rows to almost nothing and is faster there too (0.8 vs 2.1 ms).
 */
const DEFLATE_FRAME = { level: 1, strategy: zlibConstants.Z_HUFFMAN_ONLY };
const DEFLATE_FLAT = { level: 1, strategy: zlibConstants.Z_RLE };
/** Share of filtered pixels equal to their left neighbour from which run-length wins (measured crossover ~0.75). */
const FLAT_SHARE = 0.7;
const FONT_DIR = fileURLToPath(new URL('../../../assets/fonts/', import.meta.url));
const FONT_BOLD = `${FONT_DIR}DejaVuSans-Bold.ttf`;
const FONT_REGULAR = `${FONT_DIR}DejaVuSans.ttf`;
const LITTLE_ENDIAN = endianness() === 'LE';
const CARD_BG = [0x14, 0x16, 0x1c] as const;
const CARD_FRAME = [0x2a, 0x2e, 0x3a] as const;
const TITLE_COLOR = '#E8EAF0';
const SUBTITLE_COLOR = '#8B93A7';

export default async function encodeTask(task: EncodeTask): Promise<EncodeResult> {
  const t0 = performance.now();
  checkSize(task.width, task.height);
  let bytes: Uint8Array;
  switch (task.op) {
    case 'encode': {
      const need = task.width * task.height * 4;
      if (!(task.pixels instanceof SharedArrayBuffer) || task.pixels.byteLength < need) {
        throw new RangeError(`pixels must be a SharedArrayBuffer of at least ${need} bytes for ${task.width}x${task.height}`);
      }
      bytes = await encodeRaw(new Uint8Array(task.pixels, 0, need), task.width, task.height, 4, task.format);
      break;
    }
    case 'placeholder':
      bytes = await placeholder(task.width, task.height, task.title, task.subtitle, task.format);
      break;
    case 'palette':
      bytes = await encodeRaw(paletteBars(task.colors, task.width, task.height), task.width, task.height, 3, task.format);
      break;
    case 'file': {
      // Linear in libvips' reduce widens its triangle with the shrink factor, so it averages the whole source area
      // (no aliasing) without the ringing of the lanczos/cubic kernels.
      const { data, info } = await sharp(task.path)
        .resize(task.width, task.height, { fit: 'fill', kernel: 'linear' })
        .flatten({ background: { r: CARD_BG[0], g: CARD_BG[1], b: CARD_BG[2] } })
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true });
      bytes = await encodeRaw(data, info.width, info.height, info.channels, task.format);
      break;
    }
    case 'program': {
      const r = await programFrame(task.ring, task.after, task.width, task.height);
      if (!r) return { bytes: new Uint8Array(0), ms: performance.now() - t0, frameNo: task.after };
      return transfer({ bytes: r.bytes, ms: performance.now() - t0, frameNo: r.frameNo });
    }
    case 'program-thumb': {
      if (!(task.ring instanceof SharedArrayBuffer)) throw new TypeError('ring must be a SharedArrayBuffer');
      const r = await programThumb(task.ring, task.width, task.height, task.format);
      if (!r) return { bytes: new Uint8Array(0), ms: performance.now() - t0, frameNo: 0 };
      return transfer({ bytes: r.bytes, ms: performance.now() - t0, frameNo: r.frameNo });
    }
    default:
      throw new TypeError(`unknown encode op ${String((task as { op?: unknown }).op)}`);
  }
  return transfer({ bytes, ms: performance.now() - t0 });
}

/** The newest program frame (if newer than `after`) as a JPEG preview part. */
async function programFrame(
  ring: SharedArrayBuffer,
  after: number,
  width: number,
  height: number,
): Promise<{ bytes: Uint8Array; frameNo: number } | null> {
  const f = newestProgramFrame(ring, after);
  if (!f) return null;
  return { bytes: await scaledProgram(f, width, height).jpeg(JPEG_OPTIONS).toBuffer(), frameNo: f.frameNo };
}

/** An output thumbnail from the newest program frame, in the thumbnail format (PNG through writePng, or JPEG). */
async function programThumb(
  ring: SharedArrayBuffer,
  width: number,
  height: number,
  format: ImageFormat,
): Promise<{ bytes: Uint8Array; frameNo: number } | null> {
  const f = boxScaledProgram(ring, width, height);
  if (!f) return null;
  return { bytes: await encodeRaw(f.rgb, width, height, 3, format), frameNo: f.frameNo };
}

function checkSize(width: number, height: number): void {
  const ok = (v: number): boolean => Number.isInteger(v) && v >= 1 && v <= MAX_EDGE;
  if (!ok(width) || !ok(height)) throw new RangeError(`image size ${width}x${height} out of range 1..${MAX_EDGE}`);
}

/**
 * Hands the bytes back by transfer rather than structured clone. A view on part of a larger buffer (Node's pool slab)
 * would clone the whole slab, so it is copied to an exact one first; libvips' external buffers cannot be detached
 * and are copied by postMessage, which is the one copy either way.
 */
function transfer(result: EncodeResult): EncodeResult {
  let { bytes } = result;
  if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength || !(bytes.buffer instanceof ArrayBuffer))
    bytes = new Uint8Array(bytes);
  const value: EncodeResult = { bytes, ms: result.ms };
  if (result.frameNo !== undefined) value.frameNo = result.frameNo;
  return move({ [transferableSymbol]: [bytes.buffer], [valueSymbol]: value }) as unknown as EncodeResult;
}

/** Opaque output from 3- or 4-channel top-down pixels; a fourth channel is dropped, not blended. */
async function encodeRaw(data: Uint8Array, width: number, height: number, channels: number, format: ImageFormat): Promise<Uint8Array> {
  if (channels !== 3 && channels !== 4) throw new RangeError(`cannot encode ${channels}-channel pixels`);
  if (format === 'png') return writePng(data, width, height, channels);
  if (format !== 'jpg') throw new TypeError(`unknown image format ${String(format)}`);
  const input = Buffer.from(data.buffer, data.byteOffset, width * height * channels);
  const img = sharp(input, { raw: { width, height, channels } });
  return (channels === 4 ? img.removeAlpha() : img).jpeg(JPEG_OPTIONS).toBuffer();
}

/**
 * Up filter straight from 32-bit RGBA words: subtracts all four bytes at once without borrows crossing bytes.
 * Returns how many filtered pixels repeat the one before them (the input to the deflate strategy choice).
 */
function upFilterRgba32(px: Uint32Array, width: number, height: number, out: Uint8Array): number {
  const stride = width * 3 + 1;
  let repeats = 0;
  let prev = -1;
  for (let y = 0; y < height; y++) {
    let o = y * stride;
    out[o++] = 2;
    let i = y * width;
    for (let x = 0; x < width; x++, i++) {
      const a = px[i]!;
      const b = y === 0 ? 0 : px[i - width]!;
      const d = ((a | 0x80808080) - (b & 0x7f7f7f7f)) ^ ((a ^ ~b) & 0x80808080);
      const rgb = d & 0xffffff;
      if (rgb === prev) repeats++;
      prev = rgb;
      out[o++] = d;
      out[o++] = d >>> 8;
      out[o++] = d >>> 16;
    }
  }
  return repeats;
}

/** The same filter and repeat count from bytes, for 3-channel pixels and unaligned or big-endian input. */
function upFilterBytes(data: Uint8Array, width: number, height: number, channels: number, out: Uint8Array): number {
  const stride = width * 3 + 1;
  const rowIn = width * channels;
  let repeats = 0;
  let prev = -1;
  for (let y = 0; y < height; y++) {
    let o = y * stride;
    out[o++] = 2;
    for (let i = y * rowIn, end = i + rowIn; i < end; i += channels) {
      const u = i - rowIn;
      const r = (data[i]! - (y === 0 ? 0 : data[u]!)) & 255;
      const g = (data[i + 1]! - (y === 0 ? 0 : data[u + 1]!)) & 255;
      const b = (data[i + 2]! - (y === 0 ? 0 : data[u + 2]!)) & 255;
      const rgb = r | (g << 8) | (b << 16);
      if (rgb === prev) repeats++;
      prev = rgb;
      out[o++] = r;
      out[o++] = g;
      out[o++] = b;
    }
  }
  return repeats;
}

/**
 * 8-bit RGB PNG with the Up filter on every row: one subtraction per byte, and it suits both gradients and noise.
 * `deflate` forces a strategy for bench/encode.ts's side-by-side rows; the pool always uses `auto`.
 */
export function writePng(
  data: Uint8Array,
  width: number,
  height: number,
  channels: 3 | 4,
  deflate: 'auto' | 'rle' | 'huffman' = 'auto',
): Uint8Array {
  const filtered = Buffer.allocUnsafeSlow((width * 3 + 1) * height);
  const repeats =
    channels === 4 && LITTLE_ENDIAN && data.byteOffset % 4 === 0
      ? upFilterRgba32(new Uint32Array(data.buffer, data.byteOffset, width * height), width, height, filtered)
      : upFilterBytes(data, width, height, channels, filtered);
  const flat = deflate === 'auto' ? repeats >= FLAT_SHARE * width * height : deflate === 'rle';
  const idat = deflateSync(filtered, flat ? DEFLATE_FLAT : DEFLATE_FRAME);
  const out = new Uint8Array(8 + 25 + 12 + idat.length + 12);
  const view = new DataView(out.buffer);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let p = 8;
  const chunk = (type: string, body: Uint8Array): void => {
    view.setUint32(p, body.length);
    for (let k = 0; k < 4; k++) out[p + 4 + k] = type.charCodeAt(k);
    out.set(body, p + 8);
    view.setUint32(p + 8 + body.length, crc32(out.subarray(p + 4, p + 8 + body.length)));
    p += 12 + body.length;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2], 8); // 8-bit truecolour RGB; compression, filter method and interlace stay 0
  chunk('IHDR', ihdr);
  chunk('IDAT', idat);
  chunk('IEND', new Uint8Array(0));
  return out;
}

/** `#RRGGBB` to bytes; anything else is a caller bug worth an error rather than a black bar. */
function parseHex(color: string): [number, number, number] {
  if (typeof color !== 'string' || !/^#[0-9a-f]{6}$/i.test(color))
    throw new TypeError(`palette color ${JSON.stringify(color)} is not #RRGGBB`);
  const v = Number.parseInt(color.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

function paletteBars(colors: string[], width: number, height: number): Uint8Array {
  if (!Array.isArray(colors) || colors.length === 0) throw new RangeError('palette needs at least one color');
  const rgb = colors.map(parseHex);
  const n = rgb.length;
  const row = new Uint8Array(width * 3);
  for (let b = 0; b < n; b++) {
    const [r, g, bl] = rgb[b]!;
    // Integer edges: bar b covers floor(b·w/n) up to floor((b+1)·w/n), so bars tile the width exactly.
    for (let x = Math.floor((b * width) / n); x < Math.floor(((b + 1) * width) / n); x++) {
      row[x * 3] = r;
      row[x * 3 + 1] = g;
      row[x * 3 + 2] = bl;
    }
  }
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) out.set(row, y * row.length);
  return out;
}

/** Pango markup is XML: escape what it parses, drop control characters it rejects, keep at most 64 code points. */
function markupText(s: string): string {
  const clean = Array.from(
    String(s)
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  )
    .slice(0, 64)
    .join('');
  return clean.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type TextImage = { data: Buffer; width: number; height: number };

/** Text at a size proportional to the card; when it wraps past `maxHeight` it is re-rendered shrunk to fit that box. */
async function renderText(
  text: string,
  bold: boolean,
  color: string,
  px: number,
  maxWidth: number,
  maxHeight: number,
): Promise<TextImage | null> {
  const markup = markupText(text);
  if (markup === '' || maxWidth < 2 || maxHeight < 2) return null;
  const base = {
    text: `<span foreground="${color}">${markup}</span>`,
    fontfile: bold ? FONT_BOLD : FONT_REGULAR,
    rgba: true,
    align: 'centre' as const,
    wrap: 'word-char' as const,
    width: maxWidth,
  };
  const family = bold ? 'DejaVu Sans Bold' : 'DejaVu Sans';
  // At 72 dpi one point is one pixel, so the size in the font string is the pixel size.
  let r = await sharp({ text: { ...base, font: `${family} ${px.toFixed(1)}`, dpi: 72 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (r.info.height > maxHeight)
    r = await sharp({ text: { ...base, font: family, height: maxHeight } })
      .raw()
      .toBuffer({ resolveWithObject: true });
  return { data: r.data, width: r.info.width, height: r.info.height };
}

/** Straight-alpha RGBA text over the RGB card at (left, top), clipped to the card. */
function blend(card: Uint8Array, cardW: number, cardH: number, t: TextImage, left: number, top: number): void {
  for (let y = Math.max(0, -top); y < t.height && top + y < cardH; y++) {
    for (let x = Math.max(0, -left); x < t.width && left + x < cardW; x++) {
      const s = (y * t.width + x) * 4;
      const a = t.data[s + 3]!;
      if (a === 0) continue;
      const d = ((top + y) * cardW + left + x) * 3;
      for (let c = 0; c < 3; c++) card[d + c] = (t.data[s + c]! * a + card[d + c]! * (255 - a) + 127) / 255;
    }
  }
}

async function placeholder(width: number, height: number, title: string, subtitle: string, format: ImageFormat): Promise<Uint8Array> {
  if (!existsSync(FONT_BOLD) || !existsSync(FONT_REGULAR)) throw new Error(`placeholder fonts missing under ${FONT_DIR}`);
  const card = new Uint8Array(width * height * 3);
  for (let x = 0; x < width; x++) card.set(CARD_BG, x * 3);
  for (let y = 1; y < height; y++) card.copyWithin(y * width * 3, 0, width * 3);
  // A 1 px frame inset from the edge, so cards read as cards when tiled on a dark page.
  const inset = Math.round(Math.min(width, height) * 0.05);
  if (width - 2 * inset >= 8 && height - 2 * inset >= 8) {
    for (let x = inset; x < width - inset; x++) for (const y of [inset, height - 1 - inset]) card.set(CARD_FRAME, (y * width + x) * 3);
    for (let y = inset; y < height - inset; y++) for (const x of [inset, width - 1 - inset]) card.set(CARD_FRAME, (y * width + x) * 3);
  }
  // Sizes follow a 16:9 box, so tall or square cards do not get giant text.
  const scale = Math.min(width, (height * 16) / 9);
  const textW = Math.max(1, width - 2 * inset - Math.round(scale * 0.06));
  const titlePx = Math.max(6, scale * 0.1);
  const subPx = Math.max(5, scale * 0.065);
  const titleImg = await renderText(title, true, TITLE_COLOR, titlePx, textW, Math.round(height * 0.45));
  const subImg = await renderText(subtitle, false, SUBTITLE_COLOR, subPx, textW, Math.round(height * 0.3));
  const gap = titleImg && subImg ? Math.round(scale * 0.03) : 0;
  let top = Math.round((height - (titleImg?.height ?? 0) - gap - (subImg?.height ?? 0)) / 2);
  for (const t of [titleImg, subImg]) {
    if (!t) continue;
    blend(card, width, height, t, Math.round((width - t.width) / 2), top);
    top += t.height + gap;
  }
  return encodeRaw(card, width, height, 3, format);
}
