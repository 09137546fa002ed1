// GET /dmx (the Art-Net/sACN receiver's state) and GET /dmx/personality (the channel layout a desk patches).
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import type { DmxStats } from '../dmx/receiver.js';
import type { Personality } from '../dmx/personality.js';

export interface DmxRouteDeps {
  stats(): DmxStats;
  personality(): Personality;
  blendModes(): readonly string[];
}

const count = (description: string) => Type.Integer({ minimum: 0, description });
const Latency = Type.Object(
  {
    count: count('samples in the window'),
    p50: Type.Union([Type.Number(), Type.Null()]),
    p99: Type.Union([Type.Number(), Type.Null()]),
  },
  { description: 'ms from arrival to the reply of the last request it made, over the latest 256 that made one' },
);

const SacnSource = Type.Object({
  cid: Type.String({ description: 'the component identifier, 32 hex digits' }),
  name: Type.String({ description: 'the source name it sends' }),
  address: Type.String({ description: 'address of its latest packet' }),
  priority: Type.Integer({ minimum: 0, maximum: 200 }),
  active: Type.Boolean({ description: 'its frames are applied: the highest priority, and at equal priority the earliest source' }),
});

const DmxState = Type.Object(
  {
    enabled: Type.Boolean({ description: 'dmx.enabled' }),
    listening: Type.Boolean({ description: 'false while dmx.enabled is false or the port could not be bound' }),
    protocol: Type.Union([Type.Literal('artnet'), Type.Literal('sacn')]),
    universe: Type.Integer({ minimum: 0 }),
    address: Type.Integer({ minimum: 1, maximum: 512, description: 'first channel of the personality' }),
    host: Type.String(),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    packets: count('datagrams received'),
    packetsPerSecond: count('datagrams in the last second'),
    frames: count('valid frames of the configured universe'),
    applied: count('requests made from changed channels and accepted'),
    rejected: count('requests refused by their route or channel values with no meaning, and malformed or remote packets'),
    dropped: count('packets over the per-sender or overall budget, dropped unread'),
    malformed: count('packets refused by the strict reader'),
    wrongUniverse: count('valid frames of another universe'),
    remoteRefused: count('packets from other hosts without dmx.allowRemote'),
    outOfSequence: count("sACN frames behind their source's last sequence number (E1.31: by 0 to 19), dropped"),
    sourcesIgnored: count('sACN frames of a new source while the tracked sources are at their limit, ignored'),
    sources: Type.Array(SacnSource, {
      description: 'sACN sources (by CID) heard on the universe within dmx.lossMs; the active one is applied. Empty for Art-Net',
    }),
    lastSource: Type.Union([Type.String(), Type.Null()], { description: 'address of the last sender of a valid frame' }),
    loss: Type.Boolean({
      description: 'no frame for dmx.lossMs (sACN: no source left, each timing out or ending its stream) since the last one',
    }),
    lossAction: Type.Union([Type.Literal('hold'), Type.Literal('black')]),
    losses: count('signal losses since start'),
    applyMs: Latency,
  },
  { description: 'the DMX receiver' },
);

const Channel = Type.Object({
  channel: Type.Integer({ minimum: 1, description: 'DMX channel (1-based, dmx.address included); above 512 it is outside the universe' }),
  fineChannel: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'the fine channel of a 16-bit attribute' }),
  name: Type.String(),
  layer: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: '1-based layer; null for the master block' }),
  range: Type.Tuple([Type.Integer(), Type.Integer()]),
  meaning: Type.String(),
});

const PersonalityBody = Type.Object({
  address: Type.Integer({ minimum: 1, maximum: 512 }),
  footprint: Type.Integer({ minimum: 0, description: 'channels the personality takes' }),
  layers: Type.Integer({ minimum: 0 }),
  params: Type.Integer({ minimum: 0 }),
  blendModes: Type.Array(Type.String(), { description: 'blend values 1, 2, … in order' }),
  channels: Type.Array(Channel),
});

export function dmxRoutes(d: DmxRouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/dmx`,
      auth: 'required',
      operationId: 'getDmx',
      summary: 'The Art-Net/sACN receiver: protocol, universe, packets per second, last sender, signal loss',
      tags: ['desks'],
      feature: 'dmx',
      schema: {},
      responses: { 200: { description: 'the receiver state', schema: DmxState } },
      errors: [],
      handler: () => ({ json: d.stats() }),
    }),
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/dmx/personality`,
      auth: 'required',
      operationId: 'getDmxPersonality',
      summary: "The media-server personality: each channel's number, name, range and meaning, for a desk's fixture builder",
      tags: ['desks'],
      feature: 'dmx',
      schema: {},
      responses: { 200: { description: 'the channel layout', schema: PersonalityBody } },
      errors: [],
      handler: () => {
        const p = d.personality();
        const address = d.stats().address;
        return {
          json: {
            address,
            footprint: p.footprint,
            layers: p.layers,
            params: p.params,
            blendModes: [...d.blendModes()],
            channels: p.channels.map((c) => ({
              channel: address + c.offset,
              fineChannel: c.wide ? address + c.offset + 1 : null,
              name: c.name,
              layer: c.layer,
              range: [0, c.wide ? 65535 : 255] as [number, number],
              meaning: c.meaning,
            })),
          },
        };
      },
    }),
  ];
}
