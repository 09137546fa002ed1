// Pixel mapping (docs/pixelmap.md): the fixtures, the patch they make over the universes, add, edit and remove
// (each checked as a whole patch: a refusal is a 400 naming the field), and the test mode.
import Type, { type TSchema } from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { PIXELMAP_LIMITS } from '../limits.js';
import type { FixtureFields } from '../pixelmap/registry.js';
import type { PixelmapService } from '../pixelmap/service.js';
import { FixtureFieldsSchema, FixtureSchema } from '../shared/pixelmap/types.js';
import { PatchUniverseSchema, SenderSchema, TestMode } from './pixelmap-schemas.js';

const F = FixtureFieldsSchema;
const Id = Type.String({ minLength: 1, maxLength: 64, description: 'a fixture id, or its name' });
const optional = { protocol: F.protocol, universe: F.universe, address: F.address, colorOrder: F.colorOrder };
const tuning = { gamma: F.gamma, brightness: F.brightness, sampling: F.sampling };
const opt = <T extends Record<string, TSchema>>(o: T) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

const PixelmapBody = Type.Object({
  enabled: Type.Boolean({ description: 'config pixelmap.enabled: while false the patch can be edited but nothing is sent' }),
  destinations: Type.Array(Type.String(), { description: 'config pixelmap.destinations: the only places a fixture may send to' }),
  rateHz: Type.Integer({
    description:
      'packets per universe per second at most while the program moves (each rendered frame is sent once: the render fps caps it)',
  }),
  fixtures: Type.Array(FixtureSchema),
  patch: Type.Array(PatchUniverseSchema, { description: 'the universes in use per protocol and destination, with their channel runs' }),
  test: TestMode,
  sender: SenderSchema,
  max: Type.Object(
    { fixtures: Type.Integer(), pixels: Type.Integer(), universes: Type.Integer() },
    { description: 'what one patch may hold' },
  ),
});

/** Defaults of a new fixture: the first channel of Art-Net universe 0 (sACN 1), RGB, linear, full, point sampling. */
function withDefaults(b: Partial<FixtureFields> & Pick<FixtureFields, 'name' | 'geometry' | 'destination'>): FixtureFields {
  const protocol = b.protocol ?? 'artnet';
  return {
    name: b.name,
    geometry: b.geometry,
    protocol,
    destination: b.destination,
    universe: b.universe ?? (protocol === 'sacn' ? 1 : 0),
    address: b.address ?? 1,
    colorOrder: b.colorOrder ?? 'RGB',
    gamma: b.gamma ?? 1,
    brightness: b.brightness ?? 1,
    sampling: b.sampling ?? 'point',
  };
}

export function pixelmapRoutes(pm: PixelmapService) {
  const view = () => {
    const c = pm.config;
    return {
      enabled: c.enabled,
      destinations: c.destinations,
      rateHz: c.rateHz,
      fixtures: pm.fixtures,
      patch: pm.patch(),
      test: pm.test,
      sender: pm.sender,
      max: { fixtures: PIXELMAP_LIMITS.fixturesMax, pixels: PIXELMAP_LIMITS.pixelsMax, universes: PIXELMAP_LIMITS.universesMax },
    };
  };
  const post = (
    path: string,
    operationId: string,
    summary: string,
    body: Record<string, TSchema>,
    reply: TSchema,
    errors: RouteDef['errors'],
    handler: (b: Record<string, unknown>) => unknown,
    description?: string,
  ): RouteDef =>
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/pixelmap/${path}`,
      auth: 'required',
      operationId,
      summary,
      ...(description ? { description } : {}),
      tags: ['pixelmap'],
      feature: 'pixelmap',
      schema: { body: Type.Object(body, { additionalProperties: false }) },
      responses: { 200: { description: 'done', schema: reply } },
      errors: ['INVALID_REQUEST', ...errors],
      handler: (req) => ({ json: handler(req.body as Record<string, unknown>) }),
    });
  const FixtureReply = Type.Object({ fixture: FixtureSchema });
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/pixelmap`,
      auth: 'required',
      operationId: 'getPixelmap',
      summary: 'The pixel-mapping fixtures, their patch and the sender',
      tags: ['pixelmap'],
      feature: 'pixelmap',
      schema: {},
      responses: { 200: { description: 'the pixel map', schema: PixelmapBody } },
      errors: [],
      handler: () => ({ json: view() }),
    }),
    post(
      'fixtures/add',
      'addPixelFixture',
      'Add a fixture',
      { name: F.name, geometry: F.geometry, destination: F.destination, ...opt(optional), ...opt(tuning) },
      FixtureReply,
      [],
      (b) => ({ fixture: pm.add(withDefaults(b as never)) }),
      `Defaults: Art-Net universe 0 (sACN 1), address 1, RGB, gamma 1, brightness 1, point sampling. The patch is checked whole: a destination not in config pixelmap.destinations, a universe or address out of range, channels overlapping another fixture's, or more than ${PIXELMAP_LIMITS.fixturesMax} fixtures, ${PIXELMAP_LIMITS.pixelsMax} pixels or ${PIXELMAP_LIMITS.universesMax} universes is 400 INVALID_REQUEST whose message starts with the field; nothing changed.`,
    ),
    post(
      'fixtures/edit',
      'editPixelFixture',
      'Change a fixture',
      { id: Id, ...opt({ name: F.name, geometry: F.geometry, destination: F.destination, ...optional, ...tuning }) },
      FixtureReply,
      ['ITEM_NOT_FOUND'],
      ({ id, ...change }) => ({ fixture: pm.edit(String(id), change as Partial<FixtureFields>) }),
    ),
    post(
      'fixtures/remove',
      'removePixelFixture',
      'Remove a fixture',
      { id: Id },
      Type.Object({ removed: FixtureSchema }),
      ['ITEM_NOT_FOUND'],
      (b) => ({
        removed: pm.remove(String(b.id)),
      }),
    ),
    post(
      'test',
      'setPixelTest',
      'Test the fixtures: each in turn, all white, or off',
      { mode: TestMode },
      Type.Object({ test: TestMode }),
      [],
      (b) => ({
        test: pm.setTest(b.mode as never),
      }),
    ),
  ];
}
