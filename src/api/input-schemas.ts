// Schemas of described inputs and of value problems, shared by the effect and generator parameter routes.
import Type from 'typebox';
import { modulationFields } from '../modulation/schemas.js';

const Value = Type.Union([Type.Number(), Type.Boolean(), Type.Array(Type.Number())], {
  description: 'the current value, in the form of `default`; absent on image and audio inputs',
});
const Bound = Type.Union([Type.Number(), Type.Array(Type.Number())]);

const descriptionProps = {
  name: Type.String({ description: 'the ISF input name: the key in `values`' }),
  label: Type.String({ description: 'the ISF LABEL, else the name' }),
  type: Type.Union(
    ['float', 'bool', 'long', 'color', 'point2D', 'event', 'image', 'audio', 'audioFFT'].map((t) => Type.Literal(t)),
    {
      description:
        'ISF input type; `image`, `audio` and `audioFFT` are listed but not settable (textures the renderer feeds; audio reads black for now)',
    },
  ),
  default: Type.Optional(
    Type.Union([Type.Number(), Type.Boolean(), Type.Array(Type.Number())], {
      description:
        'float/long: number; bool/event: boolean; color: [r,g,b,a] 0..1; point2D: [x,y]; absent on image, audio and audioFFT inputs',
    }),
  ),
  min: Type.Optional(Bound),
  max: Type.Optional(Bound),
  values: Type.Optional(Type.Array(Type.Integer(), { description: 'long: the allowed values' })),
  labels: Type.Optional(Type.Array(Type.String(), { description: 'long: a label per value (accepted in place of the value)' })),
};

export const InputDescriptionSchema = Type.Object(descriptionProps, { description: 'one ISF input' });

export const InputStateSchema = Type.Object(
  { ...descriptionProps, value: Type.Optional(Value), ...modulationFields },
  { description: 'one ISF input and its current value (an event reads true only until the frame it fired in)' },
);

/** `details` of a refused value: the input and what it expects, or the inputs that exist. */
export const ValueProblemSchema = Type.Object(
  {
    input: Type.String({ description: 'the input name sent' }),
    expected: Type.Optional(Type.String({ description: 'what that input accepts' })),
    available: Type.Optional(Type.Array(Type.String(), { description: 'settable inputs, when the name is unknown' })),
  },
  { additionalProperties: false, description: 'present on a refused value; absent when the body itself is malformed' },
);

/** The value rules, as the route descriptions state them. */
export const VALUE_RULES =
  'Values: float a finite number, clamped to MIN..MAX, or `{"delta": n}` relative to the current value; bool a boolean; ' +
  'long one of `values` or its label (or `{"delta": n}` to step through them); color `"#RRGGBB"`, `"#RRGGBBAA"` or `[r, g, b, a]` in 0..1; ' +
  'point2D `[x, y]` (clamped to MIN..MAX); event `true` (fires for one frame). Anything else is 400 INVALID_REQUEST with `details {input, expected}`; ' +
  'an unknown input name is 400 with `details {input, available}`.';
