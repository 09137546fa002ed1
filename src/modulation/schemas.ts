// Schemas of modulators and modulated-input views for the routes and the OpenAPI description. Requests carry the
// modulator as free JSON checked by src/shared/modulation.ts, so a refusal names the field and the rule.
import Type from 'typebox';

export const ModulatorSchema = Type.Object(
  {
    kind: Type.Union(['lfo', 'audio', 'beat', 'steps'].map((k) => Type.Literal(k))),
    amount: Type.Number({ minimum: -1, maximum: 1, description: 'share of the range or of the headroom (amountOf), -1..1' }),
    polarity: Type.Optional(
      Type.Union(
        ['bipolar', 'up', 'down', 'unipolar'].map((p) => Type.Literal(p)),
        {
          description: 'bipolar (default): around the set value; up: from it upward; down: from it downward; unipolar: read as up',
        },
      ),
    ),
    amountOf: Type.Optional(
      Type.Union([Type.Literal('range'), Type.Literal('headroom')], {
        description:
          'range (default): amount is a share of the whole range and may clamp; headroom: a share of the room between the set value and the end moved toward, never clamped',
      }),
    ),
    shape: Type.Optional(Type.String({ description: 'lfo: sine, triangle, saw, ramp, square, random, smooth' })),
    rate: Type.Optional(Type.Union([Type.Number(), Type.String()], { description: 'lfo, steps: Hz or a beat division' })),
    phase: Type.Optional(Type.Number()),
    width: Type.Optional(Type.Number()),
    source: Type.Optional(Type.String({ description: 'audio: level, bass, lowMid, highMid, high, onset' })),
    gain: Type.Optional(Type.Number()),
    threshold: Type.Optional(Type.Number()),
    attackMs: Type.Optional(Type.Number()),
    releaseMs: Type.Optional(Type.Number()),
    every: Type.Optional(Type.Union([Type.Number(), Type.Literal('onset')], { description: 'beat: beats between triggers, or onset' })),
    decayMs: Type.Optional(Type.Number()),
    curve: Type.Optional(Type.Union([Type.Literal('linear'), Type.Literal('exp')])),
    values: Type.Optional(Type.Array(Type.Number(), { description: 'steps: normalised positions' })),
    glide: Type.Optional(Type.Number()),
  },
  {
    additionalProperties: false,
    description:
      'lfo {shape, rate, phase?, width?}; audio {source, gain?, threshold?, attackMs?, releaseMs?}; beat {every?, attackMs?, decayMs?, curve?}; ' +
      'steps {values, rate, glide?}; `rate`: Hz (above 0, at most 50) or a beat division "1/64" … "32", optionally suffixed d or t',
  },
);

export const ModulatorBody = Type.Unknown({
  description: 'the modulator (see ModulatorSchema: checked field by field, 400 naming the field and the rule), or null to remove',
});

const Live = Type.Union(
  [Type.Number(), Type.Boolean(), Type.Record(Type.String(), Type.Union([Type.Number(), Type.Boolean()])), Type.Null()],
  {
    description: 'the applied value of a recent frame (per component for point2D and color); null when unmodulated or not reported yet',
  },
);

/** Fields every input view gains. */
export const modulationFields = {
  modulator: Type.Optional(
    Type.Union([ModulatorSchema, Type.Record(Type.String(), ModulatorSchema), Type.Null()], {
      description: 'the modulator (per component for point2D and color), or null',
    }),
  ),
  live: Type.Optional(Live),
};

/** The answer of every modulate route: the input's new view. */
export const ModulatedInput = Type.Object({
  input: Type.String({ description: 'the input name (`tbar` for the mixer, `dimmer`)' }),
  component: Type.Optional(Type.String({ description: 'x, y (point2D); hue, saturation, brightness (color)' })),
  value: Type.Union([Type.Number(), Type.Boolean(), Type.Array(Type.Number())], { description: 'the set value' }),
  modulator: Type.Union([ModulatorSchema, Type.Null()]),
  live: Live,
});

export const Component = Type.String({
  minLength: 1,
  maxLength: 16,
  description: 'x or y (point2D); hue, saturation or brightness (color)',
});

/** `details` of a refused modulate request: the modulator field and its rule, or the input and the inputs that can take one. */
export const ModProblemSchema = Type.Object(
  {
    field: Type.Optional(Type.String({ description: 'the modulator field refused, e.g. modulator.rate' })),
    rule: Type.Optional(Type.String({ description: 'what that field accepts' })),
    input: Type.Optional(Type.String({ description: 'the input name sent' })),
    available: Type.Optional(Type.Array(Type.String(), { description: 'inputs that can be modulated' })),
  },
  { additionalProperties: false, description: 'present on a refused modulator or input; absent when the body itself is malformed' },
);
