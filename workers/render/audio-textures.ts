// ISF `audio` and `audioFFT` inputs as textures: one row (the analysis is mono), one column per sample or bin
// resampled to the columns the shader's MAX asked for, waveform centred on 0.5, spectrum 0..1 from DC to Nyquist.
// Float texels where the context has OES_texture_float, 8-bit otherwise; each shape uploads at most once a frame.
import { AUDIO_BINS } from '../../src/shared/audio-block.js';
import type { GL } from './gl-util.js';

export type AudioTextureKind = 'audio' | 'audioFFT';

/** What the textures read of the frame's audio (AudioFrame has it; named here so neither file imports the other). */
export interface AudioSpectra {
  readonly spectrum: Float32Array;
  readonly waveform: Float32Array;
  /** Refreshes spectrum and waveform at most once per frame; returns which write of the block they hold. */
  spectra(): number;
}

interface Entry {
  texture: WebGLTexture;
  columns: number;
  kind: AudioTextureKind;
  data: Float32Array | Uint8Array;
  /** The block write uploaded last (an upload happens only when the frame's spectra are newer). */
  version: number;
  allocated: boolean;
}

export class AudioTextures {
  private readonly entries = new Map<string, Entry>();
  private readonly float: boolean;
  private readonly linear: boolean;

  constructor(
    private readonly gl: GL,
    private readonly source: AudioSpectra,
  ) {
    this.float = gl.getExtension('OES_texture_float') !== null;
    // Float texels filter linearly only with their own extension; otherwise they sample at the nearest column.
    this.linear = !this.float || gl.getExtension('OES_texture_float_linear') !== null;
  }

  /** Whether the textures hold floats (docs/audio.md: 8-bit only where the context lacks OES_texture_float). */
  get isFloat(): boolean {
    return this.float;
  }

  /** The texture of `kind` at `columns` wide for the current frame (uploaded on its first use in the frame). */
  get(kind: AudioTextureKind, columns: number): WebGLTexture | null {
    const key = `${kind}:${columns}`;
    let e = this.entries.get(key);
    if (!e) {
      const texture = this.gl.createTexture();
      if (!texture) return null;
      const data = this.float ? new Float32Array(columns * 4) : new Uint8Array(columns * 4);
      e = { texture, columns, kind, data, version: -3, allocated: false };
      this.entries.set(key, e);
    }
    const version = this.source.spectra();
    if (version !== e.version) {
      this.upload(e);
      e.version = version;
    }
    return e.texture;
  }

  private upload(e: Entry): void {
    const gl = this.gl;
    const src = e.kind === 'audio' ? this.source.waveform : this.source.spectrum;
    const wave = e.kind === 'audio';
    const n = e.columns;
    for (let c = 0; c < n; c++) {
      let v = resample(src, c, n, wave);
      // A sample in -1..1 stored around 0.5; a spectrum value as it is.
      if (wave) v = v * 0.5 + 0.5;
      v = Math.min(1, Math.max(0, v));
      const x = this.float ? v : Math.round(v * 255);
      e.data[c * 4] = x;
      e.data[c * 4 + 1] = x;
      e.data[c * 4 + 2] = x;
      e.data[c * 4 + 3] = this.float ? 1 : 255;
    }
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, e.texture);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    const type = this.float ? gl.FLOAT : gl.UNSIGNED_BYTE;
    if (e.allocated) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, n, 1, gl.RGBA, type, e.data);
    else {
      const f = this.linear ? gl.LINEAR : gl.NEAREST;
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, f);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, f);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, n, 1, 0, gl.RGBA, type, e.data);
      e.allocated = true;
    }
  }

  destroy(): void {
    for (const e of this.entries.values()) this.gl.deleteTexture(e.texture);
    this.entries.clear();
  }
}

/**
 * Column `c` of `n` from AUDIO_BINS values: fewer columns keep each range's peak (largest magnitude, sign kept for a
 * waveform, so MAX 1 still tells how loud the hop was), more columns interpolate linearly.
 */
function resample(src: Float32Array, c: number, n: number, wave: boolean): number {
  if (n === AUDIO_BINS) return src[c]!;
  if (n < AUDIO_BINS) {
    const lo = Math.floor((c * AUDIO_BINS) / n);
    const hi = Math.max(lo + 1, Math.floor(((c + 1) * AUDIO_BINS) / n));
    let best = src[lo]!;
    for (let i = lo + 1; i < hi; i++) {
      const x = src[i]!;
      if (wave ? Math.abs(x) > Math.abs(best) : x > best) best = x;
    }
    return best;
  }
  const pos = ((c + 0.5) * AUDIO_BINS) / n - 0.5;
  const i = Math.max(0, Math.min(AUDIO_BINS - 1, Math.floor(pos)));
  const j = Math.min(AUDIO_BINS - 1, i + 1);
  const f = Math.max(0, Math.min(1, pos - i));
  return src[i]! * (1 - f) + src[j]! * f;
}
