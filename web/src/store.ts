// One small observable store for everything the server pushes; components read slices with useLive().
import { useEffect, useState } from 'preact/hooks';
import type { Got } from './api-shapes';

export type Link = 'starting' | 'connecting' | 'live' | 'fallback' | 'offline';

/** Why the last config reload was refused (GET /status `reloadError`). */
export type ReloadError = NonNullable<Got<'/status'>['reloadError']>;
export type Status = Got<'/status'>;

/** Each topic's full state as its GET route answers it (the hello's `state` and every event's `data`). */
export interface TopicState {
  source: Got<'/sources/current'>;
  mix: Got<'/mix'>;
  chain: Got<'/effects'>;
  params: Got<'/effects/params'>;
  /** Null while the program is not a generator. */
  generator: Got<'/sources/current/params'> | null;
  /** Null while no palette is selected. */
  palette: Got<'/palettes/current'> | null;
  global: Got<'/global'>;
  outputs: Got<'/outputs'>;
  library: Got<'/browse'>;
  status: Status;
  thumbnail: { url: string; etag: string };
  audio: Got<'/audio/levels'>;
  /** One per beat of the tempo clock, and one when its BPM or source changes. */
  tempo: {
    beat: number;
    bar: number;
    bpm: number;
    confidence: number;
    source: Got<'/tempo'>['source'];
    /** The fractional beat at `at` (epoch ms, server clock): the lamp extrapolates from it. */
    position?: number;
    at?: number;
  };
  /** The applied values of the modulated inputs, at most 30 times a second while subscribed. */
  live: LiveValues;
  /** The clip on each bus (GET /transport): at once on a change, several times a second while one plays. */
  transport: Got<'/transport'>;
  /** The layer stack (GET /layers): on every change to it. */
  layers: Got<'/layers'>;
  /** The saved scenes (GET /scenes): on every save, replace and delete. */
  scenes: Got<'/scenes'>;
  /** Every audio input (GET /audio/inputs): on every add, edit, remove, select and device change. */
  audioInputs: Got<'/audio/inputs'>;
  /** The show link and the scheduled operations (GET /show): on a change, read twice a second while subscribed. */
  show: Got<'/show'>;
  /** The cue list (GET /cues): on every change to it and every cue fired, while subscribed. */
  cues: Got<'/cues'>;
  /** The show timecode (GET /timecode): read every 100 ms while subscribed. */
  timecode: Got<'/timecode'>;
}

/** One modulated input's applied value (per component for point2D and color inputs). */
export interface LiveInput {
  input: string;
  component?: string;
  live: unknown;
}
export interface LiveValues {
  effects: Array<{ index: number } & LiveInput>;
  source: LiveInput[];
  mix?: number;
  dimmer?: number;
}
export type Topic = keyof TopicState;

export interface LiveState {
  link: Link;
  /** Whether the key prompt is shown. */
  needKey: boolean;
  keyError: string;
  status: Status | null;
  source: TopicState['source'] | null;
  mix: TopicState['mix'] | null;
  chain: Pick<TopicState['chain'], 'count' | 'items'> & Partial<TopicState['chain']>;
  /** The chain with every item's inputs and values (the `params` topic, GET /effects/params); null before it arrives. */
  params: TopicState['params'] | null;
  /** The program source's generator inputs (the `generator` topic); null while it is not a generator or unknown. */
  generator: TopicState['generator'];
  /** Bumped on every `generator` event (a null one included), so the panel can tell "pushed" from "not yet known". */
  generatorVersion: number;
  palette: TopicState['palette'];
  palettes: Got<'/palettes'>['items'];
  global: TopicState['global'];
  outputs: Pick<TopicState['outputs'], 'count' | 'items'>;
  recordings: Got<'/recordings'>['items'];
  actions: Got<'/actions'>['items'];
  catalog: Got<'/effects/available'>['items'];
  transitions: Got<'/transitions'>['items'];
  /** Bumped on every `library` event: the browse tree was rebuilt. */
  libraryVersion: number;
  /** Latest ETag per thumbnail URL from `thumbnail` events. */
  thumbs: Record<string, string>;
  /** The latest `audio` event (levels); null before one arrives. */
  audio: TopicState['audio'] | null;
  /** The latest `tempo` event; null before one arrives. */
  tempo: TopicState['tempo'] | null;
  /** The latest `live` event; null while not subscribed or before one arrives. */
  live: LiveValues | null;
  /** The latest `transport` event; null while not subscribed or before one arrives. */
  transport: TopicState['transport'] | null;
  /** Milliseconds since page load when `transport` arrived (the panel moves the position on from there). */
  transportAt: number;
  /** The latest `layers` state; null before the layer panel read it. */
  layers: TopicState['layers'] | null;
  /** The latest `scenes` state; null before the scene row read it. */
  scenes: TopicState['scenes'] | null;
  /** The latest `audioInputs` state; null before the audio inputs section read it. */
  audioInputs: TopicState['audioInputs'] | null;
  /** The latest `show` state; null before the show panel read it. */
  show: TopicState['show'] | null;
  /** The latest `cues` state; null before the cue panel read it. */
  cues: TopicState['cues'] | null;
  /** Milliseconds since page load when `cues` arrived (the panel counts `nextInMs` down from there). */
  cuesAt: number;
  /** The latest `timecode` state; null before the cue panel read it. */
  timecode: TopicState['timecode'] | null;
  /** Whether modulation is frozen (POST /modulation/freeze). */
  frozen: boolean;
  /** A default transition this page set (POST /mix/transition) whose answer has not come back yet. */
  transitionPick: { type: string; durationMs: number } | null;
  notice: string;
  /** Milliseconds since page load when the last event reached the store (for the latency measurement). */
  lastEventAt: number;
}

let state: LiveState = {
  link: 'starting',
  needKey: false,
  keyError: '',
  status: null,
  source: null,
  mix: null,
  chain: { count: 0, items: [] },
  params: null,
  generator: null,
  generatorVersion: 0,
  palette: null,
  palettes: [],
  global: { blackout: false, dimmer: 1 },
  outputs: { count: 0, items: [] },
  recordings: [],
  actions: [],
  catalog: [],
  transitions: [],
  libraryVersion: 0,
  thumbs: {},
  audio: null,
  tempo: null,
  live: null,
  transport: null,
  transportAt: 0,
  layers: null,
  scenes: null,
  audioInputs: null,
  show: null,
  cues: null,
  cuesAt: 0,
  timecode: null,
  frozen: false,
  transitionPick: null,
  notice: '',
  lastEventAt: 0,
};
const listeners = new Set<() => void>();

export const live = (): LiveState => state;

export function update(patch: Partial<LiveState>): void {
  state = { ...state, ...patch };
  for (const l of [...listeners]) l();
}

/** Re-renders the component when the selected slice changes (compared by identity). */
export function useLive<T>(select: (s: LiveState) => T): T {
  const [value, setValue] = useState(() => select(state));
  useEffect(() => {
    const check = (): void => setValue(() => select(state));
    listeners.add(check);
    check();
    return () => void listeners.delete(check);
  }, []);
  return value;
}

let noticeTimer: ReturnType<typeof setTimeout> | undefined;
export function notify(text: string): void {
  clearTimeout(noticeTimer);
  update({ notice: text });
  noticeTimer = setTimeout(() => update({ notice: '' }), 6000);
}
