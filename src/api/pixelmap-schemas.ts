// Response parts of the pixel-mapping routes and of GET /status's `pixelmap`, apart from the routes so the status
// module can use them without importing the service.
import Type from 'typebox';

export const TestMode = Type.Union([Type.Literal('off'), Type.Literal('white'), Type.Literal('each')], {
  description: 'off: the program; white: every pixel full white; each: one fixture at a time, a second each, the rest dark',
});

export const SenderFields = {
  running: Type.Boolean({ description: 'whether the sender thread runs (it starts with the first fixture)' }),
  restarts: Type.Integer({ minimum: 0, description: 'times the sender thread was restarted after a crash' }),
  packetsPerSecond: Type.Integer({ minimum: 0, description: 'Art-Net and sACN datagrams sent per second (data and sync)' }),
  framesSent: Type.Integer({ minimum: 0, description: 'sender ticks that sent at least one packet since start' }),
  lastError: Type.Union([Type.String(), Type.Null()], { description: 'the last send error or refused destination; null while none' }),
};

export const SenderSchema = Type.Object(SenderFields, { additionalProperties: false, description: 'the pixel-out sender' });

export const PixelmapStatusSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'config pixelmap.enabled' }),
    fixtures: Type.Integer({ minimum: 0 }),
    pixels: Type.Integer({ minimum: 0 }),
    universes: Type.Integer({ minimum: 0, description: 'universes the patch uses over all destinations' }),
    test: TestMode,
    ...SenderFields,
  },
  { additionalProperties: false, description: 'pixel mapping out (GET /pixelmap has the patch)' },
);

export const PatchUniverseSchema = Type.Object(
  {
    protocol: Type.Union([Type.Literal('artnet'), Type.Literal('sacn')]),
    destination: Type.String(),
    universe: Type.Integer({ minimum: 0 }),
    runs: Type.Array(
      Type.Object(
        {
          fixture: Type.String({ description: 'fixture id' }),
          firstPixel: Type.Integer({ minimum: 0, description: "index of the run's first pixel in the fixture" }),
          pixels: Type.Integer({ minimum: 1 }),
          from: Type.Integer({ minimum: 1, maximum: 512, description: 'first DMX channel' }),
          to: Type.Integer({ minimum: 1, maximum: 512, description: 'last DMX channel' }),
        },
        { additionalProperties: false },
      ),
      { description: 'the fixture runs in this universe, in fixture order' },
    ),
  },
  { additionalProperties: false },
);
