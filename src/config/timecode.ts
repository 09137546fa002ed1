// Config `timecode` (docs/timecode.md): which reader is the show's timecode (LTC on an audio input's channel, MTC
// from MIDI, Art-Net timecode on the DMX socket), a forced rate, an offset, how long it freewheels and what a loss
// does. Read at start only; `source: "none"` (the default) reads nothing.
import Type, { type Static } from 'typebox';
import { TIMECODE_LIMITS } from '../limits.js';

export const TIMECODE_SOURCES = ['none', 'ltc', 'mtc', 'artnet'] as const;
export type TimecodeSource = (typeof TIMECODE_SOURCES)[number];

/** An offset label, optionally negative: "-00:00:10:00". */
export const OFFSET_PATTERN = '^-?\\d{2}:\\d{2}:\\d{2}[:;.]\\d{2}$';

export const TimecodeConfigSchema = Type.Object(
  {
    source: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('ltc'), Type.Literal('mtc'), Type.Literal('artnet')], {
        description: 'the timecode reader "none", "ltc", "mtc" or "artnet"',
      }),
    ),
    fps: Type.Optional(
      Type.Union([Type.Null(), Type.Literal(24), Type.Literal(25), Type.Literal(29.97), Type.Literal(30)], {
        description: 'null (the rate the signal says) or 24, 25, 29.97 or 30; readings at another rate are refused and counted',
      }),
    ),
    offset: Type.Optional(
      Type.String({
        pattern: OFFSET_PATTERN,
        description: 'a timecode "HH:MM:SS:FF", optionally with a leading "-", added to every reading',
      }),
    ),
    freewheelMs: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: TIMECODE_LIMITS.freewheelMaxMs,
        description: `how long the clock runs on after the signal stops, 0 to ${TIMECODE_LIMITS.freewheelMaxMs} ms`,
      }),
    ),
    lossAction: Type.Optional(
      Type.Union([Type.Literal('hold'), Type.Literal('black'), Type.Literal('continue')], {
        description: 'after freewheel: "hold" (the time stops), "black" (stops and blacks out) or "continue" (runs on)',
      }),
    ),
    ltc: Type.Optional(
      Type.Object(
        {
          input: Type.String({
            pattern: '^[A-Za-z0-9_-]{1,64}$',
            description: 'the id of an audio input of kind test, stream, alsa or pulse',
          }),
          channel: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: TIMECODE_LIMITS.ltcChannelMax,
              description: `the input's channel carrying LTC, 1 to ${TIMECODE_LIMITS.ltcChannelMax}`,
            }),
          ),
        },
        { additionalProperties: false, description: 'an object {input, channel?}' },
      ),
    ),
    mtc: Type.Optional(
      Type.Object(
        {
          port: Type.Optional(
            Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 128 })], {
              description: 'null (any port) or the MIDI input port whose MTC is read',
            }),
          ),
        },
        { additionalProperties: false, description: 'an object {port?}' },
      ),
    ),
  },
  { additionalProperties: false, description: 'an object {source?, fps?, offset?, freewheelMs?, lossAction?, ltc?, mtc?}' },
);

export interface TimecodeConfig {
  source: TimecodeSource;
  fps: 24 | 25 | 29.97 | 30 | null;
  offset: string;
  freewheelMs: number;
  lossAction: 'hold' | 'black' | 'continue';
  ltc: { input: string; channel: number } | null;
  mtc: { port: string | null };
}

export const DEFAULT_TIMECODE: TimecodeConfig = {
  source: 'none',
  fps: null,
  offset: '00:00:00:00',
  freewheelMs: 500,
  lossAction: 'hold',
  ltc: null,
  mtc: { port: null },
};

type TimecodeFile = Static<typeof TimecodeConfigSchema>;

export function mergeTimecode(file: TimecodeFile | undefined): TimecodeConfig {
  const d = DEFAULT_TIMECODE;
  return {
    ...d,
    ...file,
    fps: file?.fps ?? null,
    ltc: file?.ltc ? { input: file.ltc.input, channel: file.ltc.channel ?? 1 } : null,
    mtc: { port: file?.mtc?.port ?? null },
  };
}

type Problem = { key: string; message: string } | null;

/** What the schema lets through that could never read timecode: the dotted key and why, or null. */
export function timecodeProblem(
  tc: TimecodeFile | undefined,
  ctx: { audioInputs: ReadonlyArray<{ id: string; kind: string }>; dmxProtocol: string; midiEnabled: boolean },
): Problem {
  if (!tc) return null;
  if (tc.offset !== undefined) {
    const [h, m, s, f] = tc.offset.replace(/^-/, '').split(/[:;.]/).map(Number) as [number, number, number, number];
    if (h > 23 || m > 59 || s > 59 || f > 29)
      return { key: 'timecode.offset', message: `timecode.offset ${JSON.stringify(tc.offset)} is not a time of day (up to 23:59:59:29)` };
  }
  switch (tc.source) {
    case 'ltc': {
      if (!tc.ltc)
        return {
          key: 'timecode.ltc',
          message: 'timecode.source "ltc" needs timecode.ltc {input, channel?} naming the audio input that carries it',
        };
      const input = ctx.audioInputs.find((a) => a.id === tc.ltc!.input);
      if (!input)
        return { key: 'timecode.ltc.input', message: `timecode.ltc.input ${JSON.stringify(tc.ltc.input)} is not one of audio.inputs` };
      if (input.kind === 'program')
        return {
          key: 'timecode.ltc.input',
          message: `timecode.ltc.input ${JSON.stringify(input.id)} is the program's audio; LTC needs an input of kind test, stream, alsa or pulse`,
        };
      return null;
    }
    case 'artnet':
      return ctx.dmxProtocol === 'artnet'
        ? null
        : { key: 'timecode.source', message: 'timecode.source "artnet" reads the DMX socket, but dmx.protocol is not "artnet"' };
    case 'mtc':
      return ctx.midiEnabled ? null : { key: 'timecode.source', message: 'timecode.source "mtc" reads MIDI, but midi.enabled is false' };
    default:
      return null;
  }
}
