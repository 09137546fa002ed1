// GET /api/v1/osc: the OSCQuery description of the OSC address space (src/osc/query.ts), or with `?HOST_INFO` the
// OSC server's host info, so TouchOSC and Chataigne can discover the controls and where to send them.
import Type, { type TSchema } from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { hostInfo, oscQueryTree, type ChainItem } from '../osc/query.js';

export interface OscQueryDeps {
  name: string;
  /** The chain with inputs and values (as GET /effects/params answers it). */
  chain(): ChainItem[];
  /** Where OSC listens (configured values while it is off). */
  osc(): { listening: boolean; host: string; port: number };
}

const leaf = {
  FULL_PATH: Type.String({ description: 'the OSC address of this node; `/` for the root' }),
  DESCRIPTION: Type.Optional(Type.String()),
  TYPE: Type.Optional(Type.String({ description: 'OSC type tag of the argument: f, i or s' })),
  ACCESS: Type.Optional(Type.Integer({ minimum: 0, maximum: 3, description: '1: sent as feedback only; 2: control only; 3: both' })),
  VALUE: Type.Optional(
    Type.Array(Type.Union([Type.Number(), Type.String()]), {
      description: 'current value where known (effect inputs: floats 0..1 over MIN..MAX)',
    }),
  ),
  RANGE: Type.Optional(
    Type.Array(
      Type.Object({ MIN: Type.Optional(Type.Number()), MAX: Type.Optional(Type.Number()), VALS: Type.Optional(Type.Array(Type.Number())) }),
    ),
  ),
};
// The tree is at most seven levels deep (/ → vjd → effects → {index} → input → mod → amount): one schema per level,
// no recursion.
const level = (inner: TSchema | null, description: string) =>
  Type.Object(
    { ...leaf, ...(inner ? { CONTENTS: Type.Optional(Type.Record(Type.String(), inner, { description: 'child nodes by name' })) } : {}) },
    { description },
  );
const Input = level(level(level(null, 'a modulator setting'), 'an input modulator node'), 'an input node');
const Node = level(
  level(level(level(Input, 'an effect item node'), 'a node'), 'a node'),
  'an OSCQuery node (github.com/Vidvox/OSCQueryProposal)',
);

const HostInfo = Type.Object(
  {
    NAME: Type.String(),
    OSC_IP: Type.Optional(Type.String({ description: 'absent when OSC listens on every address: use the host of this request' })),
    OSC_PORT: Type.Integer(),
    OSC_TRANSPORT: Type.Literal('UDP'),
    EXTENSIONS: Type.Record(Type.String(), Type.Boolean()),
  },
  { description: 'OSCQuery HOST_INFO' },
);

export function oscRoutes(d: OscQueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/osc`,
      operationId: 'getOscQuery',
      auth: 'required',
      tags: ['events'],
      feature: 'osc-query',
      summary: 'OSCQuery: the OSC address space as a JSON tree, or with `?HOST_INFO` where OSC listens',
      description:
        "The OSCQuery proposal's namespace JSON for the whole tree (sub-paths are not served): the fixed `/vjd/…` addresses and, per chain item, " +
        '`enabled`, `toggle`, `name` and one node per float, bool, long or event input with its current value; an input with a modulator has `mod/amount` (and `mod/rate` for `lfo` and `steps`). ' +
        'With the `HOST_INFO` query key (any value, or none) it answers the OSC host, port and transport instead. Answered whether OSC is enabled or not.',
      schema: {
        query: Type.Object({ HOST_INFO: Type.Optional(Type.String({ maxLength: 64, description: 'present: answer the host info' })) }),
      },
      responses: { 200: { description: 'the namespace tree (or the host info with `?HOST_INFO`)', schema: Type.Union([Node, HostInfo]) } },
      errors: ['CHAIN_BUSY'],
      handler: (req) => {
        if (req.query.HOST_INFO !== undefined) {
          const o = d.osc();
          return { json: hostInfo(d.name, o.host, o.port) };
        }
        return { json: oscQueryTree(d.chain()) };
      },
    }),
  ];
}
