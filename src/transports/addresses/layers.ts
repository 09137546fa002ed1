// The layer and scene entries of the OSC address table: a layer's opacity, blend mode, mute and selection by its
// position (1 is the bottom), and scene recall by id or name.
import { bad, post } from '../request.js';
import { flag, number, trigger, withString, type OscArg } from './args.js';
import type { OscEntry } from './entry.js';

const layerOf = (n: string | undefined): number => Number(n);

export const LAYER_TABLE: readonly OscEntry[] = [
  {
    address: '/vjd/layers/{n}/opacity',
    pattern: /^layers\/(\d{1,2})\/opacity$/,
    types: 'f|i',
    does: 'POST /layers/opacity {layer, value}: 0..1',
    map: (args: OscArg[], [n]) => {
      const v = number(args);
      return v === null || !(v >= 0 && v <= 1)
        ? bad('expects one number from 0 to 1')
        : post('/layers/opacity', { layer: layerOf(n), value: v });
    },
  },
  {
    address: '/vjd/layers/{n}/blend',
    pattern: /^layers\/(\d{1,2})\/blend$/,
    types: 's',
    does: 'POST /layers/blend {layer, mode}',
    map: (args: OscArg[], parts: string[]) =>
      withString('blend mode', (mode) => post('/layers/blend', { layer: layerOf(parts[0]), mode }))(args),
  },
  {
    address: '/vjd/layers/{n}/mute',
    pattern: /^layers\/(\d{1,2})\/mute$/,
    types: 'i|T|F|f',
    does: 'POST /layers/mute {layer, enabled}',
    map: (args: OscArg[], [n]) => {
      const v = flag(args);
      return typeof v === 'string' ? bad(v) : post('/layers/mute', { layer: layerOf(n), enabled: v });
    },
  },
  {
    address: '/vjd/layers/{n}/solo',
    pattern: /^layers\/(\d{1,2})\/solo$/,
    types: 'i|T|F|f',
    does: 'POST /layers/solo {layer, enabled}',
    map: (args: OscArg[], [n]) => {
      const v = flag(args);
      return typeof v === 'string' ? bad(v) : post('/layers/solo', { layer: layerOf(n), enabled: v });
    },
  },
  {
    address: '/vjd/layers/{n}/select',
    pattern: /^layers\/(\d{1,2})\/select$/,
    types: '(none)|i|f',
    does: 'POST /layers/select {layer}',
    map: (args: OscArg[], [n]) => trigger(args, post('/layers/select', { layer: layerOf(n) })),
  },
  {
    address: '/vjd/scenes/recall',
    types: 's',
    does: 'POST /scenes/recall {id}: id or name',
    query: { type: 's', access: 2 },
    map: withString('scene id or name', (id) => post('/scenes/recall', { id })),
  },
];
