// Feedback: a topic's new state mapped back to the addresses of the controls that change it (plus names), so OSC
// surfaces and MIDI mappings show what any transport, or the page, changed.
import type { InputInfo } from '../inputs.js';
import type { OscMessage } from './args.js';
import { showFeedback } from './show.js';
import { cuesFeedback, timecodeFeedback } from './cues.js';

/** Feedback for one effect's inputs (from GET /effects/{index} or a params answer): floats as 0..1 over MIN..MAX. */
export function inputFeedback(item: unknown): OscMessage[] {
  const it = item as { index?: number; inputs?: InputInfo[] } | null;
  if (!it || typeof it.index !== 'number' || !Array.isArray(it.inputs)) return [];
  const out: OscMessage[] = [];
  for (const i of it.inputs) {
    const address = `/vjd/effects/${it.index}/${i.name}`;
    if (i.type === 'float' && typeof i.value === 'number' && typeof i.min === 'number' && typeof i.max === 'number') {
      out.push({ address, args: [{ type: 'f', value: i.max === i.min ? 0 : (i.value - i.min) / (i.max - i.min) }] });
    } else if (i.type === 'bool' && typeof i.value === 'boolean') {
      out.push({ address, args: [{ type: 'i', value: i.value ? 1 : 0 }] });
    } else if (i.type === 'long' && typeof i.value === 'number') {
      out.push({ address, args: [{ type: 'i', value: i.value }] });
    }
  }
  return out;
}

/** Feedback of the `transport` topic: the program clip's position (0..1 of in-out) and time remaining; none without a clip. */
export function transportFeedback(d: Record<string, unknown>): OscMessage[] {
  const p = d.program as Record<string, unknown> | null | undefined;
  if (!p || typeof p.positionS !== 'number') return [];
  const out: OscMessage[] = [];
  const lo = typeof p.in === 'number' ? p.in : 0;
  const hi = typeof p.out === 'number' ? p.out : typeof p.durationS === 'number' ? p.durationS : null;
  if (hi !== null && hi > lo) {
    const f = Math.min(1, Math.max(0, (p.positionS - lo) / (hi - lo)));
    out.push({ address: '/vjd/transport/position', args: [{ type: 'f', value: f }] });
  }
  if (typeof p.remainingS === 'number') out.push({ address: '/vjd/transport/remaining', args: [{ type: 'f', value: p.remainingS }] });
  return out;
}

/** Feedback of the `layers` topic: each layer's opacity, blend, mute and solo at its position's addresses. */
function layersFeedback(d: Record<string, unknown>): OscMessage[] {
  const layers = Array.isArray(d.layers) ? (d.layers as Array<Record<string, unknown>>) : [];
  return layers.flatMap((l) => {
    const at = `/vjd/layers/${String(l.layer)}`;
    return [
      { address: `${at}/opacity`, args: [{ type: 'f', value: Number(l.opacity) }] },
      { address: `${at}/blend`, args: [{ type: 's', value: String(l.blend) }] },
      { address: `${at}/mute`, args: [{ type: 'i', value: l.mute ? 1 : 0 }] },
      { address: `${at}/solo`, args: [{ type: 'i', value: l.solo ? 1 : 0 }] },
    ];
  });
}

/** Where each level of the `audio` topic goes back out. */
const AUDIO_ADDRESS = {
  level: '/vjd/audio/level',
  bass: '/vjd/audio/bass',
  lowMid: '/vjd/audio/lowmid',
  highMid: '/vjd/audio/highmid',
  high: '/vjd/audio/high',
} as const;

/** Feedback: the messages that describe a topic's new state (same addresses as the controls, plus names). */
export function feedbackFor(topic: string, data: unknown): OscMessage[] {
  if (data === null || typeof data !== 'object') return [];
  const d = data as Record<string, unknown>;
  switch (topic) {
    case 'global':
      return [
        { address: '/vjd/global/blackout', args: [{ type: 'i', value: d.blackout ? 1 : 0 }] },
        { address: '/vjd/global/dimmer', args: [{ type: 'f', value: Number(d.dimmer) }] },
      ];
    case 'source': {
      const out: OscMessage[] = [];
      if (typeof d.id === 'string') out.push({ address: '/vjd/source/select', args: [{ type: 's', value: d.id }] });
      if (typeof d.name === 'string') out.push({ address: '/vjd/source/name', args: [{ type: 's', value: d.name }] });
      return out;
    }
    case 'mix': {
      const out: OscMessage[] = [{ address: '/vjd/mix/position', args: [{ type: 'f', value: Number(d.position) }] }];
      const preview = d.preview as { id?: unknown } | null;
      out.push({ address: '/vjd/mix/cue', args: [{ type: 's', value: preview && typeof preview.id === 'string' ? preview.id : '' }] });
      return out;
    }
    case 'palette':
      return typeof d.id === 'string' ? [{ address: '/vjd/palette/select', args: [{ type: 's', value: d.id }] }] : [];
    case 'chain': {
      const items = Array.isArray(d.items) ? (d.items as Array<Record<string, unknown>>) : [];
      return items.flatMap((it) => [
        { address: `/vjd/effects/${String(it.index)}/enabled`, args: [{ type: 'i', value: it.enabled ? 1 : 0 }] },
        { address: `/vjd/effects/${String(it.index)}/name`, args: [{ type: 's', value: String(it.name ?? it.type ?? '') }] },
      ]);
    }
    case 'audio':
      return (['level', 'bass', 'lowMid', 'highMid', 'high'] as const).flatMap((k) =>
        typeof d[k] === 'number' ? [{ address: AUDIO_ADDRESS[k], args: [{ type: 'f', value: d[k] as number }] }] : [],
      );
    case 'tempo': {
      const out: OscMessage[] = [];
      if (typeof d.bpm === 'number') out.push({ address: '/vjd/tempo/bpm', args: [{ type: 'f', value: d.bpm }] });
      if (typeof d.beat === 'number') out.push({ address: '/vjd/tempo/beat', args: [{ type: 'i', value: d.beat }] });
      return out;
    }
    case 'transport':
      return transportFeedback(d);
    case 'layers':
      return layersFeedback(d);
    case 'show':
      return showFeedback(d);
    case 'cues':
      return cuesFeedback(d);
    case 'timecode':
      return timecodeFeedback(d);
    case 'status': {
      const fps = (d.render as { fps?: unknown } | undefined)?.fps;
      return typeof fps === 'number' ? [{ address: '/vjd/status/fps', args: [{ type: 'f', value: fps }] }] : [];
    }
  }
  return [];
}
