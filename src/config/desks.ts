// Config `dmx` (Art-Net/sACN receiver and its personality) and `midi` (controllers and their mappings); both are
// off in the embedded default and take effect at a restart (MIDI mapping files in <dataDir>/midi are watched).
import Type, { type Static } from 'typebox';
import { DMX_LIMITS, MIDI_LIMITS } from '../limits.js';

const integer = (min: number, max: number) => Type.Integer({ minimum: min, maximum: max, description: `an integer from ${min} to ${max}` });
const flag = () => Type.Boolean({ description: 'true or false' });

export const DmxConfigSchema = Type.Object(
  {
    enabled: Type.Optional(flag()),
    protocol: Type.Optional(Type.Union([Type.Literal('artnet'), Type.Literal('sacn')], { description: '"artnet" or "sacn"' })),
    universe: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 63999,
        description: 'an integer: Art-Net 0 to 32767 (the 15-bit port-address), sACN 1 to 63999',
      }),
    ),
    address: Type.Optional(integer(1, 512)),
    host: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'an IP address or a host name of 1 to 255 characters' })),
    port: Type.Optional(Type.Union([Type.Null(), integer(1, 65535)], { description: "null (the protocol's port) or a port" })),
    allowRemote: Type.Optional(flag()),
    lossMs: Type.Optional(integer(100, 60_000)),
    lossAction: Type.Optional(Type.Union([Type.Literal('hold'), Type.Literal('black')], { description: '"hold" or "black"' })),
    personality: Type.Optional(
      Type.Object(
        { layers: Type.Optional(integer(0, DMX_LIMITS.layersMax)), params: Type.Optional(integer(0, DMX_LIMITS.paramsMax)) },
        { additionalProperties: false, description: 'an object {layers, params}' },
      ),
    ),
  },
  { additionalProperties: false, description: 'an object' },
);

export const MidiMappingSchema = Type.Object(
  {
    port: Type.Optional(Type.String({ minLength: 1, maxLength: MIDI_LIMITS.portNameMaxLength, description: 'part of an input port name' })),
    channel: Type.Optional(integer(1, 16)),
    type: Type.Union([Type.Literal('note'), Type.Literal('cc'), Type.Literal('cc14'), Type.Literal('pitch'), Type.Literal('program')], {
      description: '"note", "cc", "cc14" (MSB controller 0-31 with its LSB 32 higher), "pitch" or "program"',
    }),
    number: Type.Optional(integer(0, 127)),
    to: Type.String({ minLength: 2, maxLength: 256, pattern: '^/vjd/', description: 'an OSC address of vjd (docs/desks.md, OSC)' }),
    arg: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 1024 }), Type.Number()], {
        description: 'a fixed argument: a string or a number',
      }),
    ),
    mode: Type.Optional(
      Type.Union(
        [
          Type.Literal('absolute'),
          Type.Literal('trigger'),
          Type.Literal('toggle'),
          Type.Literal('relative'),
          Type.Literal('relativeOffset'),
        ],
        { description: '"absolute", "trigger", "toggle", "relative" (two\'s complement) or "relativeOffset" (64 is no move)' },
      ),
    ),
    feedback: Type.Optional(flag()),
  },
  { additionalProperties: false, description: 'an object {type, to, ...}' },
);

export const MidiConfigSchema = Type.Object(
  {
    enabled: Type.Optional(flag()),
    ports: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: MIDI_LIMITS.portNameMaxLength }), {
        maxItems: 32,
        description: 'a list of at most 32 port name parts; empty: every port',
      }),
    ),
    clock: Type.Optional(flag()),
    mappings: Type.Optional(
      Type.Array(MidiMappingSchema, {
        maxItems: MIDI_LIMITS.mappingsMax,
        description: `a list of at most ${MIDI_LIMITS.mappingsMax} mappings`,
      }),
    ),
  },
  { additionalProperties: false, description: 'an object' },
);

export type MidiMapping = {
  port?: string;
  channel?: number;
  type: 'note' | 'cc' | 'cc14' | 'pitch' | 'program';
  number?: number;
  to: string;
  arg?: string | number;
  mode?: 'absolute' | 'trigger' | 'toggle' | 'relative' | 'relativeOffset';
  feedback?: boolean;
};

export interface DmxConfig {
  enabled: boolean;
  protocol: 'artnet' | 'sacn';
  universe: number;
  /** 1-based first channel of the personality. */
  address: number;
  host: string;
  /** null: the protocol's own standard port. */
  port: number | null;
  allowRemote: boolean;
  lossMs: number;
  lossAction: 'hold' | 'black';
  personality: { layers: number; params: number };
}

export interface MidiConfig {
  enabled: boolean;
  ports: string[];
  /** MIDI clock in (ticks, start and stop) as the tempo clock's source. */
  clock: boolean;
  mappings: MidiMapping[];
}

export const DEFAULT_DMX: DmxConfig = {
  enabled: false,
  protocol: 'artnet',
  universe: 0,
  address: 1,
  host: '127.0.0.1',
  port: null,
  allowRemote: false,
  lossMs: DMX_LIMITS.lossMsDefault,
  lossAction: 'hold',
  personality: { layers: 4, params: 4 },
};

/** The universes each protocol can carry: Art-Net's 15-bit port-address, sACN's 1 to 63999. */
const UNIVERSES: Record<DmxConfig['protocol'], { min: number; max: number; name: string }> = {
  artnet: { min: 0, max: 32767, name: 'Art-Net' },
  sacn: { min: 1, max: 63999, name: 'sACN' },
};

type DmxConfigFile = Static<typeof DmxConfigSchema>;

/** The file's `dmx` over the defaults; an unset universe is the protocol's first when the default is outside its range. */
export function mergeDmx(defaults: DmxConfig, file: DmxConfigFile | undefined): DmxConfig {
  const protocol = file?.protocol ?? defaults.protocol;
  const universe = file?.universe ?? Math.max(defaults.universe, UNIVERSES[protocol].min);
  return { ...defaults, ...file, universe, personality: { ...defaults.personality, ...file?.personality } };
}

/** A `dmx` the schema lets through that no packet could ever match: the dotted key and the message, or null. */
export function dmxProblem(dmx: DmxConfigFile | undefined): { key: string; message: string } | null {
  if (dmx?.universe === undefined) return null;
  const range = UNIVERSES[dmx.protocol ?? DEFAULT_DMX.protocol];
  if (dmx.universe >= range.min && dmx.universe <= range.max) return null;
  return {
    key: 'dmx.universe',
    message: `dmx.universe ${dmx.universe} is outside the ${range.name} universes ${range.min} to ${range.max}, so no packet could match it`,
  };
}

export const DEFAULT_MIDI: MidiConfig = { enabled: false, ports: [], clock: false, mappings: [] };
