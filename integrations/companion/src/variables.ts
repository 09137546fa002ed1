// Variables, computed from the topics of the variable groups switched on in the config (see config.ts).
import type { CompanionVariableDefinition, CompanionVariableValues } from '@companion-module/base';
import type { BeatClock } from './beat.js';
import type { RequestLog } from './http.js';
import { mmss, type VjdState } from './state.js';

export function variableDefinitions(maxLayers: number): CompanionVariableDefinition[] {
  const defs: CompanionVariableDefinition[] = [
    { variableId: 'bpm', name: 'Tempo (BPM)' },
    { variableId: 'beat', name: 'Beat in the bar (1-based)' },
    { variableId: 'beat_count', name: 'Beats since the first bar' },
    { variableId: 'bar', name: 'Bars since the first' },
    { variableId: 'program', name: 'Program source name' },
    { variableId: 'preview', name: 'Preview (cued) source name' },
    { variableId: 'scene', name: 'Current scene (the stack matches it)' },
    { variableId: 'clip_position_s', name: 'Clip position (s)' },
    { variableId: 'clip_position', name: 'Clip position (mm:ss)' },
    { variableId: 'clip_remaining_s', name: 'Clip remaining (s)' },
    { variableId: 'clip_remaining', name: 'Clip remaining (mm:ss)' },
    { variableId: 'clip_state', name: 'Clip state (playing, paused, ended)' },
    { variableId: 'fps', name: 'Render fps' },
    { variableId: 'recording', name: 'Recording (true/false)' },
    { variableId: 'recording_time_s', name: 'Recording time (s)' },
    { variableId: 'recording_time', name: 'Recording time (mm:ss)' },
    { variableId: 'http_requests', name: 'HTTP requests this connection sent to vjd' },
    { variableId: 'http_not_modified', name: 'Of those, images answered 304 (unchanged)' },
  ];
  for (let n = 1; n <= maxLayers; n++) defs.push({ variableId: `layer_${n}_opacity`, name: `Layer ${n} opacity (0-1)` });
  return defs;
}

/** The values of every group whose topic is known; unknown ones are left out (Companion keeps the last). */
export function variableValues(state: VjdState, beat: BeatClock, log: RequestLog | null, now = Date.now()): CompanionVariableValues {
  const v: CompanionVariableValues = {};
  if (log) {
    v.http_requests = log.requests;
    v.http_not_modified = log.notModified;
  }
  const t = state.tempo;
  if (t) {
    v.bpm = Math.round(t.bpm * 10) / 10;
    v.beat_count = t.beat;
    v.bar = t.bar;
    v.beat = (t.beat % beat.beatsPerBar) + 1;
  }
  const mix = state.mix;
  if (mix) {
    v.program = mix.program?.name ?? '';
    v.preview = mix.preview?.name ?? '';
  }
  if (state.topics.has('scenes') && state.topics.has('layers')) v.scene = state.activeScene()?.name ?? '';
  if (state.topics.has('transport')) {
    const c = state.transport;
    v.clip_position_s = c ? round1(c.positionS) : '';
    v.clip_position = c ? mmss(c.positionS) : '--:--';
    v.clip_remaining_s = c && typeof c.remainingS === 'number' ? round1(c.remainingS) : '';
    v.clip_remaining = c ? mmss(c.remainingS) : '--:--';
    v.clip_state = c?.state ?? 'none';
  }
  const fps = state.topics.get('status')?.render?.fps;
  if (typeof fps === 'number') v.fps = Math.round(fps * 10) / 10;
  if (state.topics.has('outputs')) {
    const rec = state.runningRecordings()[0];
    const since = rec?.startedAt ? Date.parse(rec.startedAt) : Number.NaN;
    const s = Number.isFinite(since) ? Math.max(0, Math.floor((now - since) / 1000)) : 0;
    v.recording = rec !== undefined;
    v.recording_time_s = s;
    v.recording_time = rec ? mmss(s) : '00:00';
  }
  for (const l of state.topics.get('layers')?.layers ?? []) v[`layer_${l.layer}_opacity`] = l.opacity;
  return v;
}

function round1(n: unknown): number | string {
  return typeof n === 'number' ? Math.round(n * 10) / 10 : '';
}
