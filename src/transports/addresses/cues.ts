// The cue list's and timecode's entries of the OSC address table: GO, back and jump as controls; the current and
// next cue, the timecode and its state as feedback (from the `cues` and `timecode` topics).
import { post } from '../request.js';
import { trigger, withString, type OscArg, type OscMessage } from './args.js';
import type { OscEntry } from './entry.js';

const feedback = (address: string, does: string): OscEntry => ({
  address,
  types: 's',
  does: `feedback only: ${does}`,
  query: { type: 's', access: 1 },
});

export const CUES_TABLE: readonly OscEntry[] = [
  {
    address: '/vjd/cues/go',
    types: '(none)|i|f',
    does: 'POST /cues/go',
    query: { type: 'i', access: 2, range: [0, 1] },
    map: (args: OscArg[]) => trigger(args, post('/cues/go', {})),
  },
  {
    address: '/vjd/cues/back',
    types: '(none)|i|f',
    does: 'POST /cues/back',
    query: { type: 'i', access: 2, range: [0, 1] },
    map: (args: OscArg[]) => trigger(args, post('/cues/back', {})),
  },
  {
    address: '/vjd/cues/jump',
    types: 's',
    does: 'POST /cues/jump {id}',
    query: { type: 's', access: 2 },
    map: withString('cue id or name', (id) => post('/cues/jump', { id })),
  },
  feedback('/vjd/cues/current', 'the current cue’s name; "" while none'),
  feedback('/vjd/cues/next', 'the next cue’s name; "" at the end of the list'),
  {
    address: '/vjd/cues/next/in',
    types: 'f',
    does: 'feedback only: seconds until the next cue fires by its trigger; -1 while it waits for GO',
    query: { type: 'f', access: 1 },
  },
  feedback('/vjd/timecode', 'the timecode "HH:MM:SS:FF"; "" before any reading'),
  feedback('/vjd/timecode/state', 'off, waiting, locked, freewheel or lost'),
];

const name = (c: unknown): string =>
  c && typeof c === 'object' && typeof (c as { name?: unknown }).name === 'string' ? String((c as { name: string }).name) : '';
const s = (address: string, value: string): OscMessage => ({ address, args: [{ type: 's', value }] });

export function cuesFeedback(d: Record<string, unknown>): OscMessage[] {
  const inS = typeof d.nextInMs === 'number' ? Math.round(d.nextInMs / 100) / 10 : -1;
  return [
    s('/vjd/cues/current', name(d.current)),
    s('/vjd/cues/next', name(d.next)),
    { address: '/vjd/cues/next/in', args: [{ type: 'f', value: inS }] },
  ];
}

export function timecodeFeedback(d: Record<string, unknown>): OscMessage[] {
  return [
    s('/vjd/timecode', typeof d.timecode === 'string' ? d.timecode : ''),
    s('/vjd/timecode/state', typeof d.state === 'string' ? d.state : ''),
  ];
}
