// Helpers of bench/trust-probe.ts: percentiles, descriptor counts, a paced GET /status poller, an Art-Net flood, and
// the model of the crash rounds (what a 200 promised is on disk, so what a restarted server must show).
import { readdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { artDmx, type UdpSender } from '../test/helpers/dmx.js';
import { req, sleep } from '../test/helpers/server.js';

export const pct = (xs: number[], p: number): number => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length === 0 ? Number.NaN : Math.round(v[Math.min(v.length - 1, Math.floor(p * v.length))]! * 100) / 100;
};

/** Open file descriptors of a process (Linux). */
export const descriptors = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;

/**
 * The count once it settles: back at or under `floor`, or unchanged for 2 s; polled up to 10 s, because stopped
 * readers take a moment to exit and a single read would catch them on the way out.
 */
export async function settledDescriptors(pid: number, floor: number): Promise<{ count: number; settled: boolean; ms: number }> {
  const t0 = Date.now();
  let count = descriptors(pid);
  let since = Date.now();
  while (Date.now() - t0 < 10_000) {
    if (count <= floor || Date.now() - since >= 2000) return { count, settled: true, ms: Date.now() - t0 };
    await sleep(250);
    const next = descriptors(pid);
    if (next !== count) since = Date.now();
    count = next;
  }
  return { count, settled: false, ms: Date.now() - t0 };
}

/** GET /status latencies (ms) every 50 ms for `ms` on one kept-alive connection, as a dashboard polls; failures counted. */
export async function pollStatus(port: number, ms: number): Promise<{ latencies: number[]; failures: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let failures = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const t0 = performance.now();
    try {
      const status = await new Promise<number>((ok, fail) => {
        const r = request({ host: '127.0.0.1', port, path: '/api/v1/status', agent, timeout: 5000 }, (res) => {
          res.resume();
          res.on('end', () => ok(res.statusCode ?? 0));
        });
        r.on('timeout', () => r.destroy(new Error('timeout')));
        r.on('error', fail);
        r.end();
      });
      if (status === 200) latencies.push(performance.now() - t0);
      else failures++;
    } catch {
      failures++;
    }
    await sleep(Math.max(0, 50 - (performance.now() - t0)));
  }
  agent.destroy();
  return { latencies, failures };
}

/** A desk sending ArtDmx at `fps` on one universe with all 512 channels changing every frame; returns its stop. */
export function artNetFlood(desk: UdpSender, port: number, universe: number, fps: number): () => number {
  const began = Date.now();
  const frame = new Uint8Array(512);
  let sent = 0;
  // Catch up on the frames due rather than trust a 1/fps timer, which drifts late on a loaded machine.
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - began) / 1000) * fps);
    for (; sent < due; sent++) {
      for (let k = 0; k < 512; k++) frame[k] = (sent * 7 + k) & 0xff;
      void desk.send(artDmx(universe, frame, sent), port).catch(() => undefined);
    }
  }, 5);
  return () => {
    clearInterval(timer);
    return sent;
  };
}

// --- Crash rounds ---

export interface ChainItem {
  type: string;
  /** Inputs this probe set, with the value the 200 answered; other inputs are not compared. */
  values: Record<string, number>;
}

export type Change =
  | { kind: 'scene'; name: string }
  | { kind: 'dimmer'; value: number }
  | { kind: 'add'; type: string }
  | { kind: 'remove'; index: number }
  | { kind: 'params'; index: number; input: string; value: number }
  | { kind: 'cue'; id: string };

/** What the server has acknowledged: every scene saved, the last dimmer, the chain, the cued (preview) source. */
export interface Acked {
  scenes: string[];
  dimmer: number;
  chain: ChainItem[];
  preview: string | null;
}

export function applyChange(a: Acked, c: Change): Acked {
  const chain = a.chain.map((e) => ({ type: e.type, values: { ...e.values } }));
  switch (c.kind) {
    case 'scene':
      return { ...a, scenes: [...a.scenes, c.name] };
    case 'dimmer':
      return { ...a, dimmer: c.value };
    case 'cue':
      return { ...a, preview: c.id };
    case 'add':
      return { ...a, chain: [...chain, { type: c.type, values: {} }] };
    case 'remove':
      return { ...a, chain: chain.filter((_, i) => i !== c.index - 1) };
    case 'params':
      chain[c.index - 1]!.values[c.input] = c.value;
      return { ...a, chain };
  }
}

/** The request of a change (route and body). */
export function routeOf(c: Change): [string, unknown] {
  switch (c.kind) {
    case 'scene':
      return ['/scenes/save', { name: c.name }];
    case 'dimmer':
      return ['/global/dimmer', { value: c.value }];
    case 'cue':
      return ['/mix/cue', { id: c.id }];
    case 'add':
      return ['/effects/add', { type: c.type }];
    case 'remove':
      return ['/effects/remove', { index: c.index }];
    case 'params':
      return ['/effects/params', { index: c.index, values: { [c.input]: c.value } }];
  }
}

/** The server's view of what the crash rounds change, read over HTTP. */
export async function readShow(base: string): Promise<{ scenes: string[]; dimmer: number; chain: any[]; preview: string | null }> {
  const get = async (p: string): Promise<any> => {
    const r = await req('GET', `${base}/api/v1${p}`, { timeoutMs: 15000 });
    if (r.status !== 200) throw new Error(`GET ${p}: ${r.status} ${r.text}`);
    return r.json();
  };
  const [scenes, global, params, mix] = [await get('/scenes'), await get('/global'), await get('/effects/params'), await get('/mix')];
  return {
    scenes: scenes.scenes.map((x: any) => x.name as string),
    dimmer: global.dimmer,
    chain: params.items,
    preview: mix.preview?.id ?? null,
  };
}

const chainMatches = (model: ChainItem[], items: any[]): boolean =>
  model.length === items.length &&
  model.every(
    (e, i) =>
      e.type === items[i].type &&
      Object.entries(e.values).every(([name, v]) => {
        const got = items[i].inputs.find((x: any) => x.name === name)?.value;
        return typeof got === 'number' && Math.abs(got - v) < 1e-6;
      }),
  );

/**
 * What a restart lost: every acknowledged scene must be listed; the dimmer, chain and preview must be the last
 * acknowledged ones, or the change in flight at the kill (it may have reached the disk before its answer was sent).
 */
export function lost(show: Awaited<ReturnType<typeof readShow>>, acked: Acked, inFlight: Change | null): string[] {
  const maybe = inFlight ? applyChange(acked, inFlight) : acked;
  const out: string[] = [];
  const missing = acked.scenes.filter((n) => !show.scenes.includes(n));
  if (missing.length) out.push(`scenes ${missing.join(', ')}`);
  if (show.dimmer !== acked.dimmer && show.dimmer !== maybe.dimmer) out.push(`dimmer ${show.dimmer} (acked ${acked.dimmer})`);
  const shown = show.chain.map((i: any) => `${i.type}${JSON.stringify(Object.fromEntries(i.inputs.map((x: any) => [x.name, x.value])))}`);
  const model = acked.chain.map((e) => `${e.type}${JSON.stringify(e.values)}`);
  if (!chainMatches(acked.chain, show.chain) && !chainMatches(maybe.chain, show.chain))
    out.push(`chain ${shown.join(' + ') || 'empty'} (acked ${model.join(' + ') || 'empty'})`);
  if (show.preview !== acked.preview && show.preview !== maybe.preview) out.push(`preview ${show.preview} (acked ${acked.preview})`);
  return out;
}
