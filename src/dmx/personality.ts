// The media-server personality: the fixed channel layout a desk patches, as data. The master block comes first,
// then one block per layer; GET /dmx/personality, the table in docs/desks.md and the frame mapper all read this list.

/** What a channel does with its value (the mapper in map.ts gives each kind its request). */
export type ChannelKind =
  | 'dimmer'
  | 'blackout'
  | 'scene'
  | 'bpm'
  | 'tap'
  | 'transitionType'
  | 'transitionDuration'
  | 'take'
  | 'param'
  | 'source'
  | 'opacity'
  | 'blend'
  | 'mute'
  | 'play'
  | 'speed'
  | 'position'
  | 'cueGo'
  | 'cueBack';

export interface ChannelDef {
  /** 0-based from `dmx.address`; a 16-bit channel also takes the next one (fine). */
  offset: number;
  name: string;
  kind: ChannelKind;
  /** 1-based layer, null for the master block. */
  layer: number | null;
  /** 16-bit channels: coarse here, fine at offset + 1. */
  wide: boolean;
  /** For `param`: which of the chain's settable inputs (0-based, in chain order). */
  slot?: number;
  /** What a desk's first frame does with the channel (map.ts); later frames act where a value changed. */
  connect: ConnectRule;
  meaning: string;
}

/**
 * A desk's first frame: `level` applies above 0, `switch` applies when on (128 or more), `baseline` is only
 * recorded (a seek, a source, a scene or a trigger would undo the show as it stands), so each acts at its next change.
 */
export type ConnectRule = 'level' | 'switch' | 'baseline';

const NO_CHANGE = '0: no change; ';
const EDGE = 'fires when the value rises from below 128 to 128 or more';

/** Channels of the master block, before the K master chain parameters. */
const MASTER: ReadonlyArray<Omit<ChannelDef, 'offset' | 'layer'> & { width: 1 | 2 }> = [
  { name: 'dimmer', kind: 'dimmer', wide: false, width: 1, connect: 'level', meaning: 'POST /global/dimmer: 0..255 is 0..1' },
  { name: 'blackout', kind: 'blackout', wide: false, width: 1, connect: 'switch', meaning: 'POST /global/blackout: 0-127 off, 128-255 on' },
  {
    name: 'scene',
    kind: 'scene',
    wide: false,
    width: 1,
    connect: 'baseline',
    meaning: `${NO_CHANGE}n recalls the n-th scene of GET /scenes`,
  },
  {
    name: 'bpm',
    kind: 'bpm',
    wide: true,
    width: 2,
    connect: 'level',
    meaning: `${NO_CHANGE}16-bit, POST /tempo/bpm: 20 + value / 65535 × 280`,
  },
  { name: 'tap', kind: 'tap', wide: false, width: 1, connect: 'baseline', meaning: `POST /tempo/tap; ${EDGE}` },
  {
    name: 'transition type',
    kind: 'transitionType',
    wide: false,
    width: 1,
    connect: 'level',
    meaning: "0: the mixer's transition; n: the n-th of GET /transitions, used by the take channel",
  },
  {
    name: 'transition duration',
    kind: 'transitionDuration',
    wide: false,
    width: 1,
    connect: 'level',
    meaning: "0: the mixer's duration; n: n × 40 ms, used by the take channel",
  },
  {
    name: 'take',
    kind: 'take',
    wide: false,
    width: 1,
    connect: 'baseline',
    meaning: `POST /mix/take with the two channels before; ${EDGE}`,
  },
];

/** Channels of one layer block, before its K parameters. */
const LAYER: ReadonlyArray<Omit<ChannelDef, 'offset' | 'layer'> & { width: 1 | 2 }> = [
  {
    name: 'source',
    kind: 'source',
    wide: false,
    width: 1,
    connect: 'baseline',
    meaning: `${NO_CHANGE}n selects the n-th item of GET /sources on the layer (POST /layers/{n}/sources/select)`,
  },
  { name: 'opacity', kind: 'opacity', wide: false, width: 1, connect: 'level', meaning: 'POST /layers/opacity: 0..255 is 0..1' },
  {
    name: 'blend',
    kind: 'blend',
    wide: false,
    width: 1,
    connect: 'level',
    meaning: `${NO_CHANGE}n: the n-th blend mode (GET /dmx/personality blendModes)`,
  },
  { name: 'mute', kind: 'mute', wide: false, width: 1, connect: 'switch', meaning: 'POST /layers/mute: 0-127 off, 128-255 on' },
  {
    name: 'play',
    kind: 'play',
    wide: false,
    width: 1,
    connect: 'level',
    meaning: `${NO_CHANGE}1-127 pause, 128-255 play (the layer's clip)`,
  },
  {
    name: 'speed',
    kind: 'speed',
    wide: false,
    width: 1,
    connect: 'level',
    meaning: `${NO_CHANGE}1..255 is speed 0.1..4 (POST /transport/speed)`,
  },
  {
    name: 'position',
    kind: 'position',
    wide: true,
    width: 2,
    connect: 'baseline',
    meaning: `${NO_CHANGE}16-bit, POST /transport/seek: 1..65535 is 0..1 of the clip's in-out span`,
  },
];

/** The cue list's block, after the layers so a patch of the blocks before keeps its addresses. */
const CUES: ReadonlyArray<Omit<ChannelDef, 'offset' | 'layer'>> = [
  { name: 'cue GO', kind: 'cueGo', wide: false, connect: 'baseline', meaning: `POST /cues/go; ${EDGE}` },
  { name: 'cue back', kind: 'cueBack', wide: false, connect: 'baseline', meaning: `POST /cues/back; ${EDGE}` },
];

export interface Personality {
  layers: number;
  params: number;
  footprint: number;
  channels: ChannelDef[];
}

const paramDef = (slot: number, layer: number | null, offset: number, chain: string): ChannelDef => ({
  offset,
  name: `parameter ${slot + 1}`,
  kind: 'param',
  layer,
  wide: false,
  slot,
  connect: 'level',
  meaning: `the ${ordinal(slot + 1)} settable input (float, long or bool, in chain order) of the ${chain}: 0..255 is its MIN..MAX`,
});

const ordinal = (n: number): string =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** The layout for N layers and K parameters per chain. */
export function buildPersonality(layers: number, params: number): Personality {
  const channels: ChannelDef[] = [];
  let at = 0;
  for (const c of MASTER) {
    const { width, ...def } = c;
    channels.push({ ...def, offset: at, layer: null });
    at += width;
  }
  for (let k = 0; k < params; k++) channels.push(paramDef(k, null, at++, 'master chain (POST /effects/params)'));
  for (let n = 1; n <= layers; n++) {
    for (const c of LAYER) {
      const { width, ...def } = c;
      channels.push({ ...def, offset: at, layer: n });
      at += width;
    }
    for (let k = 0; k < params; k++) channels.push(paramDef(k, n, at++, 'layer chain (POST /layers/{n}/effects/params)'));
  }
  for (const c of CUES) channels.push({ ...c, offset: at++, layer: null });
  return { layers, params, footprint: at, channels };
}
