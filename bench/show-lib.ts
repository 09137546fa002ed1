// The load of the show benchmark: Companion-like pollers, a dimmer fader, a parameter sweep, takes, blackout probes
// through a decoded stream, and CPU per kind of process (vjd, encoders, remuxers, inputs) from /proc.
import { Agent } from 'node:http';
import { readFile } from 'node:fs/promises';
import { req, sleep } from '../test/helpers/server.js';
import { processTree, TICK, type Arrival } from './outputs-lib.js';
import { poll } from './thumbnail-polls.js';

export const pct = (xs: number[], q: number): number => {
  const s = Float64Array.from(xs).sort();
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 10) / 10 : NaN;
};

export interface PollStats {
  thumbMs: number[];
  jsonMs: number[];
  ticks: number;
  missed: number;
  errors: number;
}

/**
 * `n` control surfaces, each every `tickMs`: two JSON reads and a 72 px output thumbnail with If-None-Match, one
 * keep-alive connection each; a tick whose previous round has not answered is missed.
 */
export function pollers(api: (p: string) => string, n: number, tickMs: number, until: () => boolean): Promise<PollStats> {
  const st: PollStats = { thumbMs: [], jsonMs: [], ticks: 0, missed: 0, errors: 0 };
  const one = async (i: number): Promise<void> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let etag = '';
    let busy = false;
    await sleep((i * tickMs) / n);
    await new Promise<void>((finish) => {
      const timer = setInterval(() => {
        if (until()) {
          if (busy) return;
          clearInterval(timer);
          agent.destroy();
          finish();
          return;
        }
        st.ticks++;
        if (busy) {
          st.missed++;
          return;
        }
        busy = true;
        void (async () => {
          for (const path of ['/sources/current', '/global']) {
            const r = await poll(agent, api(path), '');
            st.jsonMs.push(r.ms);
            if (r.status !== 200) st.errors++;
          }
          const t = await poll(agent, api('/thumbnails/current?size=72'), etag);
          st.thumbMs.push(t.ms);
          if (t.status !== 200 && t.status !== 304) st.errors++;
          etag = t.etag;
          busy = false;
        })();
      }, tickMs);
    });
  };
  return Promise.all(Array.from({ length: n }, (_, i) => one(i))).then(() => st);
}

/** Sends `body(k)` to `path` every `periodMs` (no overlap: a slow answer delays the next); answer times in ms. */
export async function steady(url: string, periodMs: number, body: (k: number) => unknown, until: () => boolean): Promise<number[]> {
  const ms: number[] = [];
  for (let k = 0; !until(); k++) {
    const t0 = performance.now();
    await req('POST', url, { body: body(k), timeoutMs: 20000 }).catch(() => undefined);
    const took = performance.now() - t0;
    ms.push(took);
    await sleep(Math.max(0, periodMs - took));
  }
  return ms;
}

/** Blackout on → first black frame decoded by the stream's receiver (ms), then blackout off and back to picture. */
export async function blackoutProbe(api: (p: string) => string, frames: Arrival[]): Promise<number | null> {
  const from = frames.length;
  const t0 = performance.now();
  await req('POST', api('/global/blackout'), { body: { enabled: true } });
  let at: number | null = null;
  const deadline = t0 + 5000;
  while (at === null && performance.now() < deadline) {
    await sleep(5);
    for (let i = from; i < frames.length; i++) if (frames[i]!.level < 10 && frames[i]!.at >= t0) at = frames[i]!.at;
  }
  await req('POST', api('/global/blackout'), { body: { enabled: false } });
  await sleep(500);
  return at === null ? null : Math.round(at - t0);
}

type Kind = 'vjd' | 'encoders' | 'remux' | 'inputs' | 'other';

async function kindOf(pid: number, root: number): Promise<Kind> {
  if (pid === root) return 'vjd';
  const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!cmd.includes('ffmpeg')) return 'other';
  if (/-f\0matroska\0-i\0pipe:0/.test(cmd)) return 'encoders';
  if (/-f\0mpegts\0(-analyzeduration\0\d+\0)?-i\0pipe:0/.test(cmd)) return 'remux';
  return /-i\0/.test(cmd) && !cmd.includes('pipe:0') ? 'inputs' : 'other';
}

async function ticksOf(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

/** A CPU meter over a process tree: start() then stop() gives % of one core per kind (processes seen at both ends). */
export async function cpuMeter(root: number): Promise<{ stop: () => Promise<Record<Kind, number>> }> {
  const pids = await processTree(root);
  const start = new Map<number, number>();
  for (const pid of pids) {
    const t = await ticksOf(pid);
    if (t !== null) start.set(pid, t);
  }
  const t0 = performance.now();
  return {
    stop: async () => {
      const elapsed = (performance.now() - t0) / 1000;
      const out: Record<Kind, number> = { vjd: 0, encoders: 0, remux: 0, inputs: 0, other: 0 };
      for (const [pid, before] of start) {
        const after = await ticksOf(pid);
        if (after === null) continue;
        out[await kindOf(pid, root)] += (after - before) / TICK / elapsed;
      }
      for (const k of Object.keys(out) as Kind[]) out[k] = Math.round(out[k] * 1000) / 10;
      return out;
    },
  };
}

/** Resident set of a process (MiB). */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024);
}
