// GET /midi (ports, mappings, counters, recent feedback), POST /midi/learn (bind the next message to an operation:
// an OSC address of vjd), and with test hooks POST /_test/midi: a raw message into the same entry the device ports use.
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { MIDI_LIMITS } from '../limits.js';
import { MidiMappingSchema, type MidiMapping } from '../config/desks.js';
import type { LearnSpec } from '../midi/service.js';
import { targetProblem } from '../midi/targets.js';

export interface MidiRouteDeps {
  stats(): Static;
  learn(spec: LearnSpec): Promise<MidiMapping>;
  enabled(): boolean;
  receive(port: string, bytes: number[]): void;
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

const MidiState = Type.Object(
  {
    enabled: Type.Boolean({ description: 'midi.enabled' }),
    available: Type.Boolean({ description: 'whether device I/O works on this box (the MIDI library loads and the ALSA sequencer opens)' }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'why device I/O is unavailable or MIDI is off; null when it works' }),
    inputs: Type.Array(Type.String(), { description: 'input ports open now' }),
    outputs: Type.Array(Type.String(), { description: 'output ports open now (feedback goes to them)' }),
    mappings: count('mappings in force: config, the <dataDir>/midi files and learned ones'),
    mappingProblems: Type.Array(
      Type.Object({
        from: Type.String({ description: '`config` (midi.mappings) or a file name in <dataDir>/midi' }),
        index: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
          description: '0-based position in its list; null when the whole file was left out',
        }),
        reason: Type.String(),
      }),
      {
        description:
          'mappings left out when loaded (a schema mismatch, or a target that is not a controllable OSC address), the first 64; the log names every one',
      },
    ),
    learnedSetAside: Type.Union([Type.String(), Type.Null()], {
      description:
        'the name (in <dataDir>/midi) a learned.json that could not be read whole was renamed to at start, so no learn overwrites it; null when it was read whole or absent',
    }),
    received: count('messages received'),
    applied: count('requests made from mapped messages and accepted'),
    rejected: count('requests refused by their route or address'),
    malformed: count('messages refused by the strict reader'),
    dropped: count('messages over the per-port or overall budget, or past the backlog'),
    feedbackSent: count('feedback messages sent'),
    learning: Type.Boolean({ description: 'a learn waits for a message' }),
    clockBpm: Type.Union([Type.Number(), Type.Null()], { description: 'the BPM last taken from MIDI clock (midi.clock)' }),
    recentFeedback: Type.Array(
      Type.Object({ port: Type.Union([Type.String(), Type.Null()]), bytes: Type.Array(Type.Integer({ minimum: 0, maximum: 255 })) }),
      { description: `the last ${MIDI_LIMITS.recentFeedback} feedback messages, oldest first` },
    ),
    applyMs: Latency,
  },
  { description: 'MIDI controllers' },
);
type Static = import('typebox').Static<typeof MidiState>;

const learnOptions = {
  arg: MidiMappingSchema.properties.arg,
  mode: MidiMappingSchema.properties.mode,
  feedback: MidiMappingSchema.properties.feedback,
};
const address = MidiMappingSchema.properties.to;
// `operation` is the name the desks issue gave the field; `to` (the mapping's own field) stays as its alias.
const ByOperation = Type.Object(
  { operation: Type.String({ ...address, description: 'a controllable OSC address of vjd (docs/desks.md, OSC)' }), ...learnOptions },
  { additionalProperties: false },
);
const ByTo = Type.Object(
  { to: Type.String({ ...address, description: 'alias of `operation`' }), ...learnOptions },
  { additionalProperties: false },
);
const LearnBody = Type.Union([ByOperation, ByTo], { description: 'exactly one of `operation` and `to`' });
const branch = { operation: Compile(ByOperation), to: Compile(ByTo) };

/** A learn body's problem in words: which of the two address fields is missing or doubled, else the field at fault. */
function learnProblem(problem: string, value: unknown): ApiError {
  const body = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  if (body === null) return new ApiError('INVALID_REQUEST', problem);
  const named = (['operation', 'to'] as const).filter((k) => k in body);
  if (named.length !== 1)
    return new ApiError('INVALID_REQUEST', 'send exactly one of `operation` (an OSC address of vjd) and `to` (its alias)');
  // The union's own error names no field; the branch the body chose does.
  const first = branch[named[0]!].Errors(value)[0];
  return new ApiError('INVALID_REQUEST', first ? `body${first.instancePath.replace(/\//g, '.')} ${first.message}` : problem);
}

export function midiRoutes(d: MidiRouteDeps, testHooks: boolean): RouteDef[] {
  const routes: RouteDef[] = [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/midi`,
      auth: 'required',
      operationId: 'getMidi',
      summary: 'MIDI: whether device I/O works here, ports, mappings, counters and the latest feedback sent',
      tags: ['desks'],
      feature: 'midi',
      schema: {},
      responses: { 200: { description: 'the MIDI state', schema: MidiState } },
      errors: [],
      handler: () => ({ json: d.stats() }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/midi/learn`,
      auth: 'required',
      operationId: 'learnMidi',
      summary: 'Bind the next MIDI message (note, CC, pitch bend or program change) to an OSC address of vjd',
      description:
        `Waits up to ${MIDI_LIMITS.learnTimeoutMs} ms for a message on any port and answers with the new mapping (saved in \`<dataDir>/midi/learned.json\`; a control learned again is bound anew). ` +
        "`operation` (or its alias `to`, exactly one of them) is a controllable OSC address (docs/desks.md, OSC), the mapping's `to`; `arg`, `mode` and `feedback` are as in config `midi.mappings`. " +
        '400 INVALID_REQUEST for neither or both address fields, an unknown or feedback-only address, or while MIDI is off; 409 MIDI_LEARN_BUSY while another learn waits; 504 MIDI_LEARN_TIMEOUT when nothing arrived (nothing bound).',
      tags: ['desks'],
      feature: 'midi',
      schema: { body: LearnBody },
      invalid: (_where, problem, value) => learnProblem(problem, value),
      responses: {
        200: {
          description: 'the mapping bound',
          schema: Type.Object({ success: Type.Literal(true), mapping: MidiMappingSchema }),
        },
      },
      errors: ['INVALID_REQUEST', 'MIDI_LEARN_BUSY', 'MIDI_LEARN_TIMEOUT'],
      handler: async (req) => {
        if (!d.enabled()) throw new ApiError('INVALID_REQUEST', 'MIDI is off: set midi.enabled to true');
        const to = 'operation' in req.body ? req.body.operation : req.body.to;
        const problem = targetProblem(to);
        if (problem !== null) throw new ApiError('INVALID_REQUEST', problem);
        const spec: LearnSpec = { to };
        if (req.body.arg !== undefined) spec.arg = req.body.arg;
        if (req.body.mode !== undefined) spec.mode = req.body.mode;
        if (req.body.feedback !== undefined) spec.feedback = req.body.feedback;
        return { json: { success: true as const, mapping: await d.learn(spec) } };
      },
    }),
  ];
  if (testHooks) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: `${API_PREFIX}/_test/midi`,
        auth: 'required',
        operationId: 'testMidi',
        summary: 'Hand raw MIDI messages to the entry the device ports use (test hook)',
        tags: ['test'],
        hidden: true,
        schema: {
          body: Type.Object({
            port: Type.String({ minLength: 1, maxLength: MIDI_LIMITS.portNameMaxLength }),
            messages: Type.Array(Type.Array(Type.Integer({ minimum: 0, maximum: 255 }), { maxItems: 16 }), { maxItems: 1024 }),
          }),
        },
        responses: { 200: { description: 'handed over' } },
        errors: [],
        handler: (req) => {
          for (const m of req.body.messages) d.receive(req.body.port, m);
          return { json: { success: true } };
        },
      }),
    );
  }
  return routes;
}
