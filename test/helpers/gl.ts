// Test harness for ISF shaders: one headless-gl context per process, render a descriptor, read pixels back top-down.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseIsf } from '../../src/catalog/isf-parse.js';
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import { DEFAULT_PALETTE, paletteUniform } from '../../src/shared/palette.js';
import { trackGl } from '../../workers/render/gl-tracker.js';
import { isfDate, type FrameAudio } from '../../workers/render/isf-builtins.js';
import { IsfProgram } from '../../workers/render/isf-program.js';
import { createTarget, uploadRgba } from '../../workers/render/targets.js';
import { Quad } from '../../workers/render/gl-util.js';

export type GL = WebGLRenderingContext;

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type Rgba = [number, number, number, number];

export interface RenderResult {
  width: number;
  height: number;
  /** Top-down RGBA rows (row 0 = top). */
  pixels: Uint8Array;
  /** Pixel at x, y from the top-left corner. */
  at(x: number, y: number): Rgba;
}

export interface RenderOptions {
  width: number;
  height: number;
  /** Top-down RGBA 0..255, or a function called per pixel (top-left origin) at width × height. */
  input?: { width: number; height: number; pixels: Uint8Array } | ((x: number, y: number) => Rgba);
  values?: Record<string, unknown>;
  /** TIME of the first frame (default 0); each further frame adds 1/30 s. */
  time?: number;
  /** Frames rendered before the read-back (default 1), for effects with persistent buffers. */
  frames?: number;
  palette?: string[];
  /** The audio built-ins and textures of every frame (test/helpers/audio-frame.ts); absent: silence. */
  audio?: FrameAudio;
}

let context: { gl: GL; width: number; height: number } | null = null;

// headless-gl needs an X display: scripts/run-tests.mjs starts one for the whole run (as vjd does for itself).
function ensureDisplay(): void {
  if (!process.env.DISPLAY) throw new Error('no X display: run GL tests through scripts/run-tests.mjs (it starts Xvfb) or xvfb-run');
}

/** The process's one GL context (tracked for leak counts); a different size resizes its drawing buffer. */
export function createTestGl(width: number, height: number): GL {
  if (context) {
    if (context.width !== width || context.height !== height) {
      context.gl.getExtension('STACKGL_resize_drawingbuffer')?.resize(width, height);
      context.width = width;
      context.height = height;
    }
    return context.gl;
  }
  ensureDisplay();
  // Loaded lazily so DISPLAY is set before the native module opens it.
  const createGL = createRequire(import.meta.url)('gl') as typeof import('gl').default;
  const gl = createGL(width, height, { preserveDrawingBuffer: true }) as GL | null;
  if (!gl) throw new Error(`headless-gl could not create a context on DISPLAY=${process.env.DISPLAY}`);
  trackGl(gl);
  context = { gl, width, height };
  return gl;
}

/** Parses a built-in asset (assets/<kind>/<fileName>, with its `.vs` companion when present). */
export async function loadBuiltin(kind: 'effects' | 'generators', fileName: string): Promise<IsfDescriptor> {
  const path = join(ROOT, 'assets', kind, fileName);
  const text = await readFile(path, 'utf8');
  const vsPath = path.replace(/\.[^./]+$/, '.vs');
  const vertex = vsPath !== path && existsSync(vsPath) ? await readFile(vsPath, 'utf8') : undefined;
  return parseIsf(text, { file: `builtin:${fileName}`, fileName, ...(vertex !== undefined ? { vertex } : {}) });
}

/** Flips rows between top-down (CPU) and bottom-up (GL) order. */
function flipRows(src: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  const row = width * 4;
  for (let y = 0; y < height; y++) out.set(src.subarray(y * row, (y + 1) * row), (height - 1 - y) * row);
  return out;
}

/** Renders `desc` for `frames` frames and reads the last one back top-down; destroys everything it made. */
export function renderIsf(gl: GL, desc: IsfDescriptor, opts: RenderOptions): RenderResult {
  const { width, height } = opts;
  const quad = new Quad(gl);
  const out = createTarget(gl, width, height);
  let inputTex: WebGLTexture | null = null;
  let program: IsfProgram | null = null;
  try {
    let inputSize: [number, number] = [width, height];
    if (opts.input) {
      const img = typeof opts.input === 'function' ? { width, height, pixels: rasterize(opts.input, width, height) } : opts.input;
      inputSize = [img.width, img.height];
      inputTex = gl.createTexture();
      // The chain hands effects GL-oriented textures, so the top-down test image goes in flipped.
      uploadRgba(gl, inputTex!, img.width, img.height, flipRows(img.pixels, img.width, img.height));
    }
    program = IsfProgram.create(gl, desc, width, height, quad);
    const palette = paletteUniform(opts.palette ?? DEFAULT_PALETTE);
    const frames = Math.max(1, opts.frames ?? 1);
    const t0 = opts.time ?? 0;
    for (let i = 0; i < frames; i++) {
      program.render({
        input: inputTex,
        inputSize,
        target: out.framebuffer,
        time: t0 + i / 30,
        timeDelta: i === 0 ? 0 : 1 / 30,
        frameIndex: i,
        date: isfDate(),
        palette,
        values: opts.values ?? {},
        ...(opts.audio ? { audio: opts.audio } : {}),
      });
    }
    const raw = new Uint8Array(width * height * 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, out.framebuffer);
    gl.pixelStorei(gl.PACK_ALIGNMENT, 1);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, raw);
    const pixels = flipRows(raw, width, height);
    return {
      width,
      height,
      pixels,
      at(x: number, y: number): Rgba {
        if (x < 0 || y < 0 || x >= width || y >= height) throw new RangeError(`pixel ${x},${y} outside ${width}x${height}`);
        const i = (y * width + x) * 4;
        return [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!, pixels[i + 3]!];
      },
    };
  } finally {
    program?.destroy();
    gl.deleteTexture(inputTex);
    out.destroy();
    quad.destroy();
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }
}

function rasterize(fn: (x: number, y: number) => Rgba, width: number, height: number): Uint8Array {
  const px = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      px.set(
        fn(x, y).map((v) => Math.max(0, Math.min(255, Math.round(v)))),
        (y * width + x) * 4,
      );
  }
  return px;
}
