// Config `audio`: the audio inputs, the one selected at a first start, a fixed gain instead of the automatic one, and
// which capture devices are discovered.
import Type from 'typebox';
import { AUDIO_LIMITS } from '../limits.js';

/** A lavfi audio source: read from the config file only; no control characters, and never an option (a leading `-`). */
const LavfiSource = Type.String({
  minLength: 1,
  maxLength: AUDIO_LIMITS.sourceMaxLength,
  pattern: '^[A-Za-z][^\\x00-\\x1f\\x7f]*$',
  description: `an ffmpeg lavfi audio source of 1 to ${AUDIO_LIMITS.sourceMaxLength} characters starting with a letter, such as "sine=frequency=440"`,
});

/** Capture device names reach an ffmpeg argument: a fixed set of characters, never an option (a leading `-`). */
export const DEVICE_PATTERN = `^[A-Za-z0-9][A-Za-z0-9_.:,=@+-]{0,${AUDIO_LIMITS.deviceMaxLength - 1}}$`;
const DEVICE_RE = new RegExp(DEVICE_PATTERN);

/** True when `name` may be handed to ffmpeg as a capture device. */
export function deviceNameOk(name: string): boolean {
  return name.length <= AUDIO_LIMITS.deviceMaxLength && DEVICE_RE.test(name);
}

const InputId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'an id of 1 to 64 characters from A-Z a-z 0-9 _ -' });
const InputName = Type.String({ minLength: 1, maxLength: 128, description: 'a name of 1 to 128 characters' });

/** One shape for every kind, checked per kind by audioProblem (so an error names the field, not a union branch). */
const AudioInput = Type.Object(
  {
    id: InputId,
    name: InputName,
    kind: Type.Union([Type.Literal('test'), Type.Literal('alsa'), Type.Literal('pulse')], {
      description: 'the input kind "test", "alsa" or "pulse"',
    }),
    source: Type.Optional(LavfiSource),
    device: Type.Optional(
      Type.String({
        pattern: DEVICE_PATTERN,
        description: `a capture device of 1 to ${AUDIO_LIMITS.deviceMaxLength} characters from A-Z a-z 0-9 _ . : , = @ + - starting with a letter or digit, such as "plughw:CARD=USB,DEV=0" or "alsa_input.usb-mic.analog-stereo"`,
      }),
    ),
  },
  { additionalProperties: false, description: 'an object {id, name, kind, source} (test) or {id, name, kind, device} (alsa, pulse)' },
);

const DeviceDiscovery = Type.Object(
  {
    alsa: Type.Optional(Type.Boolean({ description: 'true or false' })),
    pulse: Type.Optional(Type.Boolean({ description: 'true or false' })),
    asoundDir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'a folder path of 1 to 4096 characters' })),
  },
  { additionalProperties: false, description: 'an object {alsa?, pulse?, asoundDir?}' },
);

export const AudioConfigSchema = Type.Object(
  {
    inputs: Type.Optional(
      Type.Array(AudioInput, {
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
    devices: Type.Optional(DeviceDiscovery),
  },
  { additionalProperties: false, description: 'an object {inputs?, input?, gain?, devices?}' },
);

export interface AudioTestInputConfig {
  id: string;
  name: string;
  kind: 'test';
  /** An ffmpeg lavfi audio source (`sine`, `aevalsrc`, with their options). */
  source: string;
}

/** A capture device pinned in the config file, or one found by discovery. */
export interface AudioDeviceInputConfig {
  id: string;
  name: string;
  kind: 'alsa' | 'pulse';
  /** The ALSA PCM (`plughw:CARD=USB,DEV=0`) or PulseAudio source name ffmpeg opens; matches DEVICE_PATTERN. */
  device: string;
}

export type AudioInputConfig = AudioTestInputConfig | AudioDeviceInputConfig;

/** Which capture devices are discovered; every key defaults (both on, `/proc/asound`). */
export interface AudioDeviceDiscovery {
  alsa?: boolean;
  pulse?: boolean;
  /** Where ALSA lists its cards and PCMs (procfs); another folder of the same layout serves tests. */
  asoundDir?: string;
}

export interface AudioConfig {
  inputs: AudioInputConfig[];
  /** The input selected while the data dir has no saved audio selection; null: none. */
  input: string | null;
  /** A fixed gain for levels and bands; null: the automatic gain (rolling peak). */
  gain: number | null;
  devices?: AudioDeviceDiscovery;
}

/** A short tone blip on every beat of a click track, so a new installation has something moving. */
const CLICK_120 = "aevalsrc='if(lt(mod(t,0.5),0.03),0.8*sin(2*PI*1000*t),0)':s=48000:c=mono";

export const DEFAULT_AUDIO: AudioConfig = {
  inputs: [{ id: 'click', name: 'Click 120 BPM', kind: 'test', source: CLICK_120 }],
  input: 'click',
  gain: null,
};

/** Ids unique (case-insensitive) and `input` naming one of them: the dotted key and the message, or null. */
export function audioProblem(
  audio: { inputs?: Array<{ id: string; kind: string; source?: string; device?: string }>; input?: string | null } | undefined,
): { key: string; message: string } | null {
  if (!audio) return null;
  const inputs = audio.inputs ?? DEFAULT_AUDIO.inputs;
  const seen = new Map<string, number>();
  for (const [i, a] of inputs.entries()) {
    const fields = a as Record<string, unknown>;
    const [needs, refuses] = a.kind === 'test' ? ['source', 'device'] : ['device', 'source'];
    if (fields[needs!] === undefined)
      return { key: `audio.inputs[${i}].${needs}`, message: `audio.inputs[${i}].${needs} is required for a ${a.kind} input` };
    if (fields[refuses!] !== undefined)
      return { key: `audio.inputs[${i}].${refuses}`, message: `audio.inputs[${i}].${refuses} is not used by a ${a.kind} input` };
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
