// Config `audio`: the audio inputs, the one selected at a first start, a fixed gain instead of the automatic one,
// the latency offset, the tempo clock's bar length and search range, and which capture devices are discovered.
import Type from 'typebox';
import { AUDIO_LIMITS, TEMPO_LIMITS } from '../limits.js';
import { InputUrl } from './input-url.js';

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

/** The fields each kind takes besides id, name and kind (audioProblem checks them, naming the key). */
const KIND_FIELDS = { test: ['source'], stream: ['url'], program: [], alsa: ['device'], pulse: ['device'] } as const;
type AudioKind = keyof typeof KIND_FIELDS;
/** Every per-kind field, in the order audioProblem looks at them. */
const KIND_FIELD_NAMES = ['source', 'url', 'device'] as const;

// One object for every kind, not a union: a union's error names whichever branch failed first, never the field
// of the kind that was meant; the per-kind fields are checked in audioProblem instead.
const AudioInputSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'an id of 1 to 64 characters from A-Z a-z 0-9 _ -' }),
    name: Type.String({ minLength: 1, maxLength: 128, description: 'a name of 1 to 128 characters' }),
    kind: Type.Union([Type.Literal('test'), Type.Literal('stream'), Type.Literal('program'), Type.Literal('alsa'), Type.Literal('pulse')], {
      description: 'the input kind "test", "stream", "program", "alsa" or "pulse"',
    }),
    source: Type.Optional(LavfiSource),
    /** Any URL ffmpeg reads; a live input of the same URL shares its reader (src/inputs/reader-pool.ts). */
    url: Type.Optional(InputUrl),
    device: Type.Optional(
      Type.String({
        pattern: DEVICE_PATTERN,
        description: `a capture device of 1 to ${AUDIO_LIMITS.deviceMaxLength} characters from A-Z a-z 0-9 _ . : , = @ + - starting with a letter or digit, such as "plughw:CARD=USB,DEV=0" or "alsa_input.usb-mic.analog-stereo"`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'an object {id, name, kind} with "source" for kind "test", "url" for kind "stream", "device" for kinds "alsa" and "pulse", nothing more for "program"',
  },
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
      Type.Array(AudioInputSchema, {
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
    devices: Type.Optional(DeviceDiscovery),
  },
  { additionalProperties: false, description: 'an object {inputs?, input?, gain?, offsetMs?, beatsPerBar?, tempoRange?, devices?}' },
);

export type AudioInputConfig =
  /** `source`: an ffmpeg lavfi audio source (`sine`, `aevalsrc`, with their options). */
  | { id: string; name: string; kind: 'test'; source: string }
  /** `url`: anything ffmpeg reads; shares a live input's reader where that input has the same URL. */
  | { id: string; name: string; kind: 'stream'; url: string }
  /** The program source's own audio track, silence when it has none. */
  | { id: string; name: string; kind: 'program' }
  /** `device`: a capture device, pinned here or found by discovery. */
  | AudioDeviceInputConfig;

/** A capture device pinned in the config file, or one found by discovery. */
export interface AudioDeviceInputConfig {
  id: string;
  name: string;
  kind: 'alsa' | 'pulse';
  /** The ALSA PCM (`plughw:CARD=USB,DEV=0`) or PulseAudio source name ffmpeg opens; matches DEVICE_PATTERN. */
  device: string;
}

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
  /** Readers look at the analysis and the clock this much after a frame's due time (output and projector latency). */
  offsetMs: number;
  beatsPerBar: number;
  /** The beat tracker's search range (BPM). */
  tempoRange: { min: number; max: number };
  devices?: AudioDeviceDiscovery;
}

/** A short tone blip on every beat of a click track, so a new installation has something moving. */
const CLICK_120 = "aevalsrc='if(lt(mod(t,0.5),0.03),0.8*sin(2*PI*1000*t),0)':s=48000:c=mono";

export const DEFAULT_AUDIO: AudioConfig = {
  inputs: [
    { id: 'click', name: 'Click 120 BPM', kind: 'test', source: CLICK_120 },
    { id: 'program', name: 'Program audio', kind: 'program' },
  ],
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
export function audioProblem(
  audio: { inputs?: readonly LooseInput[]; input?: string | null; tempoRange?: { min: number; max: number } } | undefined,
): { key: string; message: string } | null {
  if (!audio) return null;
  const inputs: readonly LooseInput[] = audio.inputs ?? DEFAULT_AUDIO.inputs;
  const seen = new Map<string, number>();
  for (const [i, a] of inputs.entries()) {
    const fields = fieldProblem(a, i);
    if (fields) return fields;
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

/** An input as the schema lets it through, before its kind's fields are checked. */
interface LooseInput {
  id: string;
  kind: string;
  source?: string;
  url?: string;
  device?: string;
}

/** The kind's own fields present, then no other kind's field (a missing field is the likelier mistake, so it is named first). */
function fieldProblem(a: LooseInput, i: number): { key: string; message: string } | null {
  const own: readonly string[] = KIND_FIELDS[a.kind as AudioKind] ?? [];
  for (const f of KIND_FIELD_NAMES) {
    const key = `audio.inputs[${i}].${f}`;
    if (own.includes(f) && a[f] === undefined) return { key, message: `${key} is required for kind ${JSON.stringify(a.kind)}` };
  }
  for (const f of KIND_FIELD_NAMES) {
    const key = `audio.inputs[${i}].${f}`;
    if (!own.includes(f) && a[f] !== undefined) return { key, message: `${key} is not taken by kind ${JSON.stringify(a.kind)}` };
  }
  return null;
}

/** Which ingest readers decode their audio track: live inputs of an audio `stream` URL, media files for `program`. */
export function audioTracks(audio: AudioConfig): { urls: Set<string>; files: boolean } {
  const urls = new Set<string>();
  for (const i of audio.inputs) if (i.kind === 'stream') urls.add(i.url);
  return { urls, files: audio.inputs.some((i) => i.kind === 'program') };
}
