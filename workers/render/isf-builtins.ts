// The ISF built-in uniforms (TIME, DATE, … and vjd's palette and audio values): their declarations and the per-frame
// setter, shared by single-effect programs and fused programs so a built-in means the same in both.
import { ISF_AUDIO_UNIFORMS } from '../../src/shared/isf-types.js';
import { PALETTE_SLOTS } from '../../src/shared/palette.js';
import type { GL } from './gl-util.js';
import type { AudioTextures } from './audio-textures.js';
import type { ClockValues } from './isf-clock.js';

/** The audio built-ins, in the order of the values vector (see audio-frame.ts). */
export const AUDIO_UNIFORMS = ISF_AUDIO_UNIFORMS;

/** Declarations of the built-ins (both stages of a program declare them alike, as GLSL ES linking requires). */
export const BUILTIN_UNIFORMS: readonly string[] = [
  'uniform float TIME;',
  'uniform float TIMEDELTA;',
  'uniform int FRAMEINDEX;',
  'uniform vec2 RENDERSIZE;',
  'uniform int PASSINDEX;',
  'uniform vec4 DATE;',
  `uniform vec3 PALETTE[${PALETTE_SLOTS}];`,
  'uniform int PALETTE_COUNT;',
  ...AUDIO_UNIFORMS.map((n) => `uniform float ${n};`),
];

// Palette colour k (0-based): GLSL ES 1.00 cannot index a uniform array with a computed int, so every palette
// shader would otherwise carry this loop. One line, so compile-error line numbers stay exact.
export const PALETTE_COLOR_FUNCTION = `vec3 PALETTE_COLOR(int k) { vec3 c = PALETTE[0]; for (int i = 1; i < ${PALETTE_SLOTS}; i++) { if (i == k) c = PALETTE[i]; } return c; }`;

type Loc = WebGLUniformLocation | null;
export type BuiltinLocations = Record<
  'time' | 'timeDelta' | 'frameIndex' | 'renderSize' | 'passIndex' | 'date' | 'palette' | 'paletteCount',
  Loc
> & {
  /** The audio built-ins the program uses (the linker drops unused ones): index into the audio vector, location. */
  audio: Array<[number, WebGLUniformLocation]>;
};

export function builtinLocations(gl: GL, program: WebGLProgram): BuiltinLocations {
  const at = (name: string): Loc => gl.getUniformLocation(program, name);
  return {
    time: at('TIME'),
    timeDelta: at('TIMEDELTA'),
    frameIndex: at('FRAMEINDEX'),
    renderSize: at('RENDERSIZE'),
    passIndex: at('PASSINDEX'),
    date: at('DATE'),
    palette: at('PALETTE[0]'),
    paletteCount: at('PALETTE_COUNT'),
    audio: usedAudio(at),
  };
}

function usedAudio(at: (name: string) => Loc): Array<[number, WebGLUniformLocation]> {
  const used: Array<[number, WebGLUniformLocation]> = [];
  AUDIO_UNIFORMS.forEach((name, i) => {
    const loc = at(name);
    if (loc) used.push([i, loc]);
  });
  return used;
}

/** The audio of one frame: the built-ins' values (AUDIO_UNIFORMS order) and the ISF audio textures. */
export interface FrameAudio {
  values: Float32Array;
  textures: AudioTextures | null;
}

/** What the built-ins of one frame hold (RENDERSIZE and PASSINDEX are per pass, set by the program). */
export interface BuiltinFrame {
  time: number;
  timeDelta: number;
  frameIndex: number;
  /** ISF's DATE: year, month (1-12), day, seconds since local midnight; see isfDate. */
  date: Float32Array;
  palette: { rgb: Float32Array; count: number };
  /** Absent (thumbnails of generators, warm-up draws): the audio built-ins read 0 and audio textures are blank. */
  audio?: FrameAudio;
  /**
   * Set by the render loop: each program's TIME, TIMEDELTA and FRAMEINDEX come from its own clock (isf-clock.ts),
   * time and frameIndex above being the loop's. Absent (thumbnails, warm-up draws): the values above are used as given.
   */
  instanceClock?: boolean;
}

/** Sets the frame-wide built-ins of the program in use; `clock`: the instance's own time values, else the frame's. */
export function setBuiltins(gl: GL, u: BuiltinLocations, frame: BuiltinFrame, clock: ClockValues = frame): void {
  gl.uniform1f(u.time, clock.time);
  gl.uniform1f(u.timeDelta, clock.timeDelta);
  gl.uniform1i(u.frameIndex, clock.frameIndex);
  gl.uniform4fv(u.date, frame.date);
  gl.uniform3fv(u.palette, frame.palette.rgb);
  gl.uniform1i(u.paletteCount, frame.palette.count);
  // A program that names no audio built-in has an empty list: it pays nothing per frame.
  const values = frame.audio?.values;
  for (let i = 0; i < u.audio.length; i++) {
    const [k, loc] = u.audio[i]!;
    gl.uniform1f(loc, values ? values[k]! : 0);
  }
}

/** Fills `out` (or a new vector) with ISF's DATE for `now`; the engine does it once per frame for every program. */
export function isfDate(now: Date = new Date(), out: Float32Array = new Float32Array(4)): Float32Array {
  out[0] = now.getFullYear();
  out[1] = now.getMonth() + 1;
  out[2] = now.getDate();
  out[3] = now.getHours() * 3600 + now.getMinutes() * 60 + now.getSeconds() + now.getMilliseconds() / 1000;
  return out;
}
