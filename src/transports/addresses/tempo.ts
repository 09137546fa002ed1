// The tempo and audio entries of the OSC address table: tap, BPM, resync, half/double, back to auto and the audio input as
// controls; the beat, the BPM and the levels as feedback (sent from the `tempo` and `audio` topics).
import { bad, post } from '../request.js';
import { number, trigger, withString, type OscArg } from './args.js';
import type { OscEntry } from './entry.js';

const feedback = (address: string, type: 'f' | 'i', does: string): OscEntry => ({
  address,
  types: type,
  does: `feedback only: ${does}`,
  query: { type, access: 1, ...(type === 'f' ? { range: [0, 1] as [number, number] } : {}) },
});

export const TEMPO_AUDIO_TABLE: readonly OscEntry[] = [
  {
    address: '/vjd/tempo/tap',
    types: '(none)|i|f',
    does: 'POST /tempo/tap',
    query: { type: 'i', access: 2, range: [0, 1] },
    map: (args: OscArg[]) => trigger(args, post('/tempo/tap')),
  },
  {
    address: '/vjd/tempo/bpm',
    types: 'f|i',
    does: 'POST /tempo/bpm {bpm}; fed back on every beat',
    query: { type: 'f', access: 3, range: [20, 300] },
    map: (args: OscArg[]) => {
      const v = number(args);
      // NaN and infinities have no JSON form: refused here with the same words as any other bad number.
      return v === null || !Number.isFinite(v) ? bad('expects one finite number (BPM)') : post('/tempo/bpm', { bpm: v });
    },
  },
  {
    address: '/vjd/tempo/resync',
    types: '(none)|i|f',
    does: 'POST /tempo/resync',
    query: { type: 'i', access: 2, range: [0, 1] },
    map: (args: OscArg[]) => trigger(args, post('/tempo/resync')),
  },
  {
    address: '/vjd/tempo/half',
    types: '(none)|i|f',
    does: 'POST /tempo/multiply {factor: 0.5}',
    query: { type: 'i', access: 2, range: [0, 1] },
    map: (args: OscArg[]) => trigger(args, post('/tempo/multiply', { factor: 0.5 })),
  },
  {
    address: '/vjd/tempo/double',
    types: '(none)|i|f',
    does: 'POST /tempo/multiply {factor: 2}',
    query: { type: 'i', access: 2, range: [0, 1] },
    map: (args: OscArg[]) => trigger(args, post('/tempo/multiply', { factor: 2 })),
  },
  {
    address: '/vjd/tempo/auto',
    types: '(none)|i|f',
    does: 'POST /tempo/source {source: "auto"}',
    query: { type: 'i', access: 2, range: [0, 1] },
    map: (args: OscArg[]) => trigger(args, post('/tempo/source', { source: 'auto' })),
  },
  { address: '/vjd/tempo/beat', types: 'i', does: 'feedback only: the beat count, on every beat', query: { type: 'i', access: 1 } },
  {
    address: '/vjd/audio/select',
    types: 's',
    does: 'POST /audio/select {id}; "none" detaches',
    query: { type: 's', access: 2 },
    map: withString('audio input id', (id) => post('/audio/select', { id })),
  },
  feedback('/vjd/audio/level', 'f', 'RMS level'),
  feedback('/vjd/audio/bass', 'f', 'bass band'),
  feedback('/vjd/audio/lowmid', 'f', 'low-mid band'),
  feedback('/vjd/audio/highmid', 'f', 'high-mid band'),
  feedback('/vjd/audio/high', 'f', 'high band'),
];
