// Config `audio`: the audio inputs, the one selected at a first start, a fixed gain instead of the automatic one,
// the latency offset, and the tempo clock's bar length and search range.
import Type from 'typebox';
import { AUDIO_LIMITS, TEMPO_LIMITS } from '../limits.js';

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
    offsetMs: Type.Optional(
      Type.Number({
        minimum: -TEMPO_LIMITS.offsetMaxMs,
        maximum: TEMPO_LIMITS.offsetMaxMs,
        description: `a number of milliseconds from -${TEMPO_LIMITS.offsetMaxMs} to ${TEMPO_LIMITS.offsetMaxMs}`,
      }),
    ),
    beatsPerBar: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: TEMPO_LIMITS.beatsPerBarMax,
        description: `an integer from 1 to ${TEMPO_LIMITS.beatsPerBarMax}`,
      }),
    ),
    tempoRange: Type.Optional(
      Type.Object(
        {
          min: Type.Number({ minimum: TEMPO_LIMITS.bpmMin, maximum: TEMPO_LIMITS.bpmMax }),
          max: Type.Number({ minimum: TEMPO_LIMITS.bpmMin, maximum: TEMPO_LIMITS.bpmMax }),
        },
        { additionalProperties: false, description: `an object {min, max} of BPM from ${TEMPO_LIMITS.bpmMin} to ${TEMPO_LIMITS.bpmMax}` },
      ),
    ),
  },
  { additionalProperties: false, description: 'an object {inputs?, input?, gain?, offsetMs?, beatsPerBar?, tempoRange?}' },
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
  /** Readers look at the analysis and the clock this much after a frame's due time (output and projector latency). */
  offsetMs: number;
  beatsPerBar: number;
  /** The beat tracker's search range (BPM). */
  tempoRange: { min: number; max: number };
}

/** A short tone blip on every beat of a click track, so a new installation has something moving. */
const CLICK_120 = "aevalsrc='if(lt(mod(t,0.5),0.03),0.8*sin(2*PI*1000*t),0)':s=48000:c=mono";

export const DEFAULT_AUDIO: AudioConfig = {
  inputs: [{ id: 'click', name: 'Click 120 BPM', kind: 'test', source: CLICK_120 }],
  input: 'click',
  gain: null,
  offsetMs: 0,
  beatsPerBar: 4,
  tempoRange: { min: 75, max: 150 },
};

/** Why a tempo range is refused (null when it is fine): min below max by at least TEMPO_LIMITS.rangeMinRatio. */
export function rangeProblem(min: number, max: number): string | null {
  if (!(max >= min * TEMPO_LIMITS.rangeMinRatio))
    return `the range must have max at least ${TEMPO_LIMITS.rangeMinRatio} times min (got min ${min}, max ${max}), so a tempo drifting a little stays inside it`;
  return null;
}

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
  const range = audio.tempoRange;
  const bad = range ? rangeProblem(range.min, range.max) : null;
  if (bad) return { key: 'audio.tempoRange', message: `audio.tempoRange: ${bad}` };
  const input = audio.input;
  if (typeof input === 'string' && !seen.has(input.toLowerCase()))
    return { key: 'audio.input', message: `audio.input must be null or the id of one of audio.inputs (got ${JSON.stringify(input)})` };
  return null;
}
