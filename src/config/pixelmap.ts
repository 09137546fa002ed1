// Config `pixelmap`: whether pixel mapping runs, the sender's rate and keep-alive, sync packets, and the only
// destinations a fixture may send to (the API cannot add one: an operator decides where this box sends). Read at
// start only; disabled by default.
import Type, { type Static } from 'typebox';
import { PIXELMAP_LIMITS } from '../limits.js';

const L = PIXELMAP_LIMITS;

export const DESTINATION_PATTERN = '^(broadcast|multicast|\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3})$';

const port = (what: string) =>
  Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: 65535 })], { description: `null (${what}) or a port` }));

export const PixelmapConfigSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'true or false' })),
    rateHz: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: L.rateMaxHz,
        description: `an integer from 1 to ${L.rateMaxHz} (packets per universe per second)`,
      }),
    ),
    keepAliveMs: Type.Optional(
      Type.Integer({
        minimum: L.keepAliveMinMs,
        maximum: L.keepAliveMaxMs,
        description: `an integer from ${L.keepAliveMinMs} to ${L.keepAliveMaxMs}`,
      }),
    ),
    sync: Type.Optional(Type.Boolean({ description: 'true or false' })),
    destinations: Type.Optional(
      Type.Array(
        Type.String({ pattern: DESTINATION_PATTERN, description: 'an IPv4 address, "broadcast" (Art-Net) or "multicast" (sACN)' }),
        { maxItems: L.destinationsMax, description: `a list of at most ${L.destinationsMax} destinations` },
      ),
    ),
    artnetPort: port('6454'),
    sacnPort: port('5568'),
  },
  { additionalProperties: false, description: 'an object {enabled?, rateHz?, keepAliveMs?, sync?, destinations?, artnetPort?, sacnPort?}' },
);

export interface PixelmapConfig {
  enabled: boolean;
  rateHz: number;
  keepAliveMs: number;
  /** ArtSync / sACN universe sync after each frame's packets. */
  sync: boolean;
  /** The only places fixtures may send to: IPv4 addresses, "broadcast", "multicast". */
  destinations: string[];
  /** null: the protocol's port (6454, 5568); a test points them at its own receivers. */
  artnetPort: number | null;
  sacnPort: number | null;
}

export const DEFAULT_PIXELMAP: PixelmapConfig = {
  enabled: false,
  rateHz: L.rateDefaultHz,
  keepAliveMs: L.keepAliveDefaultMs,
  sync: false,
  destinations: [],
  artnetPort: null,
  sacnPort: null,
};

type PixelmapFile = Static<typeof PixelmapConfigSchema>;

export function mergePixelmap(file: PixelmapFile | undefined): PixelmapConfig {
  return { ...DEFAULT_PIXELMAP, ...file, destinations: [...(file?.destinations ?? [])] };
}

/** What the schema's pattern lets through that is no unicast destination: the dotted key and why, or null. */
export function pixelmapProblem(pm: PixelmapFile | undefined): { key: string; message: string } | null {
  const seen = new Set<string>();
  for (const [i, d] of (pm?.destinations ?? []).entries()) {
    const key = `pixelmap.destinations[${i}]`;
    if (seen.has(d)) return { key, message: `${key} ${JSON.stringify(d)} is listed twice` };
    seen.add(d);
    if (d === 'broadcast' || d === 'multicast') continue;
    const o = d.split('.').map(Number) as [number, number, number, number];
    if (o.some((x) => x > 255)) return { key, message: `${key} ${JSON.stringify(d)} is not an IPv4 address` };
    if (o[0] === 0) return { key, message: `${key} ${JSON.stringify(d)} is not an address a packet can go to` };
    if (o[0] >= 224 && o[0] <= 239)
      return { key, message: `${key} ${JSON.stringify(d)} is a multicast group; use "multicast" (each sACN universe has its own group)` };
    if (o.every((x) => x === 255)) return { key, message: `${key} "255.255.255.255" is the broadcast address; use "broadcast"` };
    if (o[0] >= 240) return { key, message: `${key} ${JSON.stringify(d)} is a reserved address` };
  }
  return null;
}
