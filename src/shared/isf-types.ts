// The parsed form of an ISF file (effects and generators), shared by the catalog (main thread) and the render worker.

export type IsfInputType = 'float' | 'long' | 'bool' | 'color' | 'point2D' | 'image' | 'event' | 'audio' | 'audioFFT';

/** Inputs the shader reads as textures (image, audio waveform, audio spectrum): fed by the renderer, never set as values. */
export const isSamplerInput = (i: { type: IsfInputType }): boolean => i.type === 'image' || i.type === 'audio' || i.type === 'audioFFT';

/** The audio uniforms every shader may use undeclared, like TIME (values: workers/render/audio-frame.ts). */
export const ISF_AUDIO_UNIFORMS = [
  'AUDIO_LEVEL',
  'AUDIO_BASS',
  'AUDIO_LOWMID',
  'AUDIO_HIGHMID',
  'AUDIO_HIGH',
  'AUDIO_ONSET',
  'BPM',
  'BEAT_PHASE',
  'BEAT_COUNT',
  'BAR_PHASE',
] as const;

/** The widest texture an ISF `audio`/`audioFFT` input may ask for with MAX. */
export const ISF_AUDIO_MAX_COLUMNS = 4096;

export interface IsfInput {
  name: string;
  type: IsfInputType;
  label?: string;
  /** float/long: number; bool/event: boolean; color: [r,g,b,a] 0..1; point2D: [x,y]; image, audio, audioFFT: none. */
  default?: number | boolean | number[];
  min?: number | number[];
  /** audio/audioFFT: the texture's width in columns (ISF's MAX), absent for the analysis's own count. */
  max?: number | number[];
  /** long: the allowed values and their labels. */
  values?: number[];
  labels?: string[];
}

export interface IsfPass {
  /** Name of the buffer this pass renders into; absent on the last pass (the output). */
  target?: string;
  persistent: boolean;
  float: boolean;
  /** Size expressions (`$WIDTH`, `$HEIGHT`, input names, + - * / ( ), floor/ceil/round/min/max/abs/pow/sqrt). */
  width?: string;
  height?: string;
}

export interface IsfDescriptor {
  /** Lower-case identifier `[a-z0-9_]+` taken from the file name: the effect or source type. */
  type: string;
  /** Display name: the header's NAME when present, else the type in title case. */
  name: string;
  /** An ISF with an `inputImage` input is an effect; one without is a generator (a source type). */
  kind: 'effect' | 'generator';
  /** Where it came from, for logs: `builtin:<file>` or the absolute path. */
  file: string;
  description: string;
  categories: string[];
  credit?: string;
  inputs: IsfInput[];
  /** Always at least one pass (an ISF without PASSES has one implicit pass). */
  passes: IsfPass[];
  /** GLSL ES 1.00 fragment source after the JSON header comment. */
  fragment: string;
  /** Optional companion vertex shader source (`<name>.vs`). */
  vertex?: string;
  /** `IMPORTED` images, declared as sampler2D uniforms under their names (absent when the header has none). */
  imported?: IsfImported[];
  /** Header problems vjd accepted and corrected (e.g. MIN above MAX), as shown in logs and the catalog. */
  warnings?: string[];
  /** The built-in file this operator file replaced (`builtin:<file>`), when it has a built-in's type. */
  replaces?: string;
}

/** One `IMPORTED` image: the header's name and path; the catalog adds the decoded pixels or why there are none. */
export interface IsfImported {
  name: string;
  /** As written in the header: relative to the `.fs` file's folder. */
  path: string;
  /** Absolute path once resolved: identifies the image, so instances and files naming it share one texture. */
  file?: string;
  /** Set when the image could not be used; a program with such an image refuses to compile with this message. */
  error?: string;
  /** Decoded RGBA, bottom row first (GL's texture orientation), shared with the render worker without a copy. */
  pixels?: SharedArrayBuffer;
  width?: number;
  height?: number;
  /** Grows with every decode: the render worker re-uploads a texture when it sees a higher one for the same file. */
  serial?: number;
}
