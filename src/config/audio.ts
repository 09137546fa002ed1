// Config `audio`: the audio inputs, the one selected at a first start, and a fixed gain instead of the automatic one.
import Type from 'typebox';
import { AUDIO_LIMITS } from '../limits.js';

/** A lavfi audio source: read from the config file only; no control characters, and never an option (a leading `-`). */
const LavfiSource = Type.String({
  minLength: 1,
  maxLength: AUDIO_LIMITS.sourceMaxLength,
  pattern: '^[A-Za-z][^\\x00-\\x1f\\x7f]*$',
  description: `an ffmpeg lavfi audio source of 1 to ${AUDIO_LIMITS.sourceMaxLength} characters starting with a letter, such as "sine=frequency=440"`,
});

const AudioTestInput = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'an id of 1 to 64 characters from A-Z a-z 0-9 _ -' }),
    name: Type.String({ minLength: 1, maxLength: 128, description: 'a name of 1 to 128 characters' }),
    kind: Type.Literal('test', { description: 'the input kind "test"' }),
    source: LavfiSource,
  },
  { additionalProperties: false, description: 'an object {id, name, kind, source}' },
);

export const AudioConfigSchema = Type.Object(
  {
    inputs: Type.Optional(
      Type.Array(AudioTestInput, {
        maxItems: AUDIO_LIMITS.inputsMax,
        description: `a list of at most ${AUDIO_LIMITS.inputsMax} audio inputs`,
      }),
    ),
    input: Type.Optional(
      Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 64 })], { description: 'null or the id of an audio input' }),
    ),
    gain: Type.Optional(
      Type.Union([Type.Null(), Type.Number({ exclusiveMinimum: 0, maximum: 1000 })], {
        description: 'null (automatic gain) or a number above 0 and at most 1000',
      }),
    ),
  },
  { additionalProperties: false, description: 'an object {inputs?, input?, gain?}' },
);

export interface AudioInputConfig {
  id: string;
  name: string;
  kind: 'test';
  /** An ffmpeg lavfi audio source (`sine`, `aevalsrc`, with their options). */
  source: string;
}

export interface AudioConfig {
  inputs: AudioInputConfig[];
  /** The input selected while the data dir has no saved audio selection; null: none. */
  input: string | null;
  /** A fixed gain for levels and bands; null: the automatic gain (rolling peak). */
  gain: number | null;
}

/** A short tone blip on every beat of a click track, so a new installation has something moving. */
const CLICK_120 = "aevalsrc='if(lt(mod(t,0.5),0.03),0.8*sin(2*PI*1000*t),0)':s=48000:c=mono";

export const DEFAULT_AUDIO: AudioConfig = {
  inputs: [{ id: 'click', name: 'Click 120 BPM', kind: 'test', source: CLICK_120 }],
  input: 'click',
  gain: null,
};

/** Ids unique (case-insensitive) and `input` naming one of them: the dotted key and the message, or null. */
export function audioProblem(audio: Partial<AudioConfig> | undefined): { key: string; message: string } | null {
  if (!audio) return null;
  const inputs = audio.inputs ?? DEFAULT_AUDIO.inputs;
  const seen = new Map<string, number>();
  for (const [i, a] of inputs.entries()) {
    // POST /audio/select takes this word for "no input", so an input so named could never be selected.
    if (a.id.toLowerCase() === 'none')
      return { key: `audio.inputs[${i}].id`, message: `audio.inputs[${i}].id must not be "none" (it detaches the input)` };
    const previous = seen.get(a.id.toLowerCase());
    if (previous !== undefined)
      return {
        key: `audio.inputs[${i}].id`,
        message: `audio.inputs[${i}].id ${JSON.stringify(a.id)} is already used by audio.inputs[${previous}]`,
      };
    seen.set(a.id.toLowerCase(), i);
  }
  const input = audio.input;
  if (typeof input === 'string' && !seen.has(input.toLowerCase()))
    return { key: 'audio.input', message: `audio.input must be null or the id of one of audio.inputs (got ${JSON.stringify(input)})` };
  return null;
}
