// The clip transport entries of the OSC address table: play, pause, toggle, restart, seek and speed of the program's
// clip as controls; its position and the time remaining as feedback (sent from the `transport` topic).
import { bad, post } from '../request.js';
import { number, trigger, type OscArg } from './args.js';
import type { OscEntry } from './entry.js';

const button = (address: string, route: string): OscEntry => ({
  address,
  types: '(none)|i|f',
  does: `POST ${route}`,
  query: { type: 'i', access: 2, range: [0, 1] },
  map: (args: OscArg[]) => trigger(args, post(route)),
});

export const TRANSPORT_TABLE: readonly OscEntry[] = [
  button('/vjd/transport/play', '/transport/play'),
  button('/vjd/transport/pause', '/transport/pause'),
  button('/vjd/transport/toggle', '/transport/toggle'),
  button('/vjd/transport/restart', '/transport/restart'),
  {
    address: '/vjd/transport/seek',
    types: 'f',
    does: 'POST /transport/seek {fraction}: 0..1 of the in-out span',
    query: { type: 'f', access: 2, range: [0, 1] },
    map: (args: OscArg[]) => {
      const v = number(args);
      return v === null || !(v >= 0 && v <= 1) ? bad('expects one number from 0 to 1') : post('/transport/seek', { fraction: v });
    },
  },
  {
    address: '/vjd/transport/speed',
    types: 'f|i',
    does: 'POST /transport/speed {speed}',
    query: { type: 'f', access: 2, range: [0.1, 4] },
    map: (args: OscArg[]) => {
      const v = number(args);
      // The route names the range; NaN and infinities have no JSON form and are refused here.
      return v === null || !Number.isFinite(v) ? bad('expects one finite number (speed)') : post('/transport/speed', { speed: v });
    },
  },
  {
    address: '/vjd/transport/position',
    types: 'f',
    does: "feedback only: the program clip's position as 0..1 of its in-out span",
    query: { type: 'f', access: 1, range: [0, 1] },
  },
  {
    address: '/vjd/transport/remaining',
    types: 'f',
    does: "feedback only: seconds to the program clip's out point at its speed",
    query: { type: 'f', access: 1 },
  },
];
