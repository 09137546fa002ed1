// One small observable store for everything the server pushes; components read slices with useLive().
import { useEffect, useState } from 'preact/hooks';

export type Link = 'starting' | 'connecting' | 'live' | 'fallback' | 'offline';

export interface LiveState {
  link: Link;
  /** Whether the key prompt is shown. */
  needKey: boolean;
  keyError: string;
  status: any;
  source: any;
  mix: any | null;
  chain: { count: number; enabledCount?: number; items: any[] };
  /** The chain with every item's inputs and values (the `params` topic, GET /effects/params); null before it arrives. */
  params: { count: number; items: any[] } | null;
  /** The program source's generator inputs (the `generator` topic); null while it is not a generator or unknown. */
  generator: { id: string; inputs: any[] } | null;
  /** Bumped on every `generator` event (a null one included), so the panel can tell "pushed" from "not yet known". */
  generatorVersion: number;
  palette: any | null;
  palettes: any[];
  global: { blackout: boolean; dimmer: number };
  outputs: { count: number; items: any[] };
  recordings: any[];
  actions: any[];
  catalog: any[];
  transitions: any[];
  /** Bumped on every `library` event: the browse tree was rebuilt. */
  libraryVersion: number;
  /** Latest ETag per thumbnail URL from `thumbnail` events. */
  thumbs: Record<string, string>;
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
