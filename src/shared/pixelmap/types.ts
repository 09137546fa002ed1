// A pixel-mapping fixture (docs/pixelmap.md): LED pixels placed on the program in normalised coordinates (0..1,
// origin top-left), sampled on the GPU each frame and sent as DMX over Art-Net or sACN to a configured destination.
import Type, { type Static } from 'typebox';

const Unit = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const StripGeometry = Type.Object(
  {
    kind: Type.Literal('strip'),
    x1: Unit('start x'),
    y1: Unit('start y'),
    x2: Unit('end x'),
    y2: Unit('end y'),
    pixels: Type.Integer({ minimum: 1, maximum: 1024, description: 'pixels along the line, first at (x1, y1)' }),
  },
  { additionalProperties: false },
);

export const MatrixGeometry = Type.Object(
  {
    kind: Type.Literal('matrix'),
    x: Unit('left edge'),
    y: Unit('top edge'),
    w: Unit('width'),
    h: Unit('height'),
    cols: Type.Integer({ minimum: 1, maximum: 256 }),
    rows: Type.Integer({ minimum: 1, maximum: 256 }),
    /** Rows (or columns) alternate direction, as most LED matrices are wired. */
    serpentine: Type.Boolean(),
    start: Type.Union([Type.Literal('top-left'), Type.Literal('top-right'), Type.Literal('bottom-left'), Type.Literal('bottom-right')]),
    /** Whether the wiring runs along rows (default) or columns. */
    order: Type.Optional(Type.Union([Type.Literal('rows'), Type.Literal('columns')])),
  },
  { additionalProperties: false },
);

export const PixelGeometry = Type.Object({ kind: Type.Literal('pixel'), x: Unit('x'), y: Unit('y') }, { additionalProperties: false });

export const FixtureFieldsSchema = {
  name: Type.String({ minLength: 1, maxLength: 64 }),
  geometry: Type.Union([StripGeometry, MatrixGeometry, PixelGeometry]),
  protocol: Type.Union([Type.Literal('artnet'), Type.Literal('sacn')]),
  /** A unicast IPv4 address, "broadcast" (Art-Net) or "multicast" (sACN): one of config pixelmap.destinations. */
  destination: Type.String({ minLength: 1, maxLength: 64 }),
  /** Art-Net port-address 0-32767, sACN 1-63999; a fixture that does not fit continues at the next universe. */
  universe: Type.Integer({ minimum: 0, maximum: 63999 }),
  address: Type.Integer({ minimum: 1, maximum: 512, description: 'first DMX channel of the first pixel' }),
  // Spelled out: a mapped array loses the literal types, and ColorOrder would be `never`.
  colorOrder: Type.Union([
    Type.Literal('RGB'),
    Type.Literal('RBG'),
    Type.Literal('GRB'),
    Type.Literal('GBR'),
    Type.Literal('BRG'),
    Type.Literal('BGR'),
    Type.Literal('RGBW'),
    Type.Literal('GRBW'),
  ]),
  gamma: Type.Number({ minimum: 1, maximum: 4 }),
  brightness: Type.Number({ minimum: 0, maximum: 1 }),
  sampling: Type.Union([Type.Literal('point'), Type.Literal('area')]),
};

export const FixtureSchema = Type.Object(
  { id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }), ...FixtureFieldsSchema },
  { additionalProperties: false },
);

export type Fixture = Static<typeof FixtureSchema>;
export type ColorOrder = Fixture['colorOrder'];

/** Channels one pixel takes in a colour order. */
export const channelsOf = (order: ColorOrder): 3 | 4 => (order.length === 4 ? 4 : 3);
