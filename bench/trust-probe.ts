// Trust probe: re-checks on the real built server three behaviours a show relies on, each bounded in count and time,
// all on 127.0.0.1. (1) Seeks and ping-pong toggles on a clip leave the descriptor count where it was. (2) A desk's
// Art-Net at 44 fps with every channel changing leaves GET /status answering (p50/p99 with and without, in
// alternating phases on one server) and the server alive. (3) SIGKILL during a burst of changes loses nothing a 200
// acknowledged: scenes, dimmer, chain and cued source are all back after a restart.
// Env: VJD_PROBE_SECONDS (flood seconds in all, default 10), VJD_PROBE_ROUNDS (seek and crash rounds, default 5; also
// cuts the DMX phase pairs to at most 2). Writes bench/results/trust-probe.{md,json}; exits 1 when a check fails.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { COLOURS, makeColourClip } from '../test/helpers/colour-clip.js';
import { udpSender } from '../test/helpers/dmx.js';
import { freeUdpPort } from '../test/helpers/osc.js';
import { req, ROOT, sleep, startServer, tempDir, waitUntil, type TestServer } from '../test/helpers/server.js';
import {
  type Acked,
  applyChange,
  artNetFlood,
  type Change,
  descriptors,
  lost,
  pct,
  pollStatus,
  readShow,
  routeOf,
  settledDescriptors,
} from './trust-probe-lib.js';

const SECONDS = Number(process.env.VJD_PROBE_SECONDS ?? 10);
const ROUNDS = Number(process.env.VJD_PROBE_ROUNDS ?? 5);
const SEEKS = 25;
const CLIP_FPS = 25;
/** Descriptors the server may hold beyond its count at rest (a request's socket, a log write), as the test allows. */
const SLACK = 4;
const DMX_FPS = 44;
const DMX_PAIRS = Math.min(2, ROUNDS);
/** A guard on one burst's length; the kill comes within 1.5 s of the first set anyway. */
const MAX_STEPS = 300;
const NO_LIVE = { test: [], streams: [], v4l2: { enabled: false } };
// Debug logs of three servers would only fill this process's memory.
const QUIET = { VJD_LOG_LEVEL: 'warn' };

async function post(s: TestServer, path: string, body: unknown = {}): Promise<any> {
  const r = await req('POST', `${s.base}/api/v1${path}`, { body, timeoutMs: 20000 });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
  return r.json();
}
const get = async (s: TestServer, path: string): Promise<any> => (await req('GET', `${s.base}/api/v1${path}`, { timeoutMs: 15000 })).json();

// --- 1. Descriptors under seeks ---

async function descriptorProbe() {
  const work = await tempDir('vjd-probe-fd-');
  const media = join(work, 'media');
  await mkdir(media);
  await makeColourClip(media, 'Colours', CLIP_FPS);
  const s = await startServer({
    dataDir: join(work, 'data'),
    env: QUIET,
    config: { render: { width: 160, height: 120, fps: CLIP_FPS }, media: { roots: [media] }, live: NO_LIVE },
  });
  try {
    await waitUntil(async () => (await get(s, '/sources')).items.some((i: any) => i.sourceKind === 'file'), 30000);
    await post(s, '/inputs/file/select', { name: 'Colours' });
    await waitUntil(async () => (await get(s, '/transport')).program?.state === 'playing', 15000);
    const pid = s.proc.pid!;
    const start = await settledDescriptors(pid, 0);
    const rounds: Array<{ count: number; settled: boolean; ms: number; failedSeeks: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      let failedSeeks = 0;
      for (let i = 0; i < SEEKS; i++) {
        // Ping-pong mid-round, so later seeks start readers that play backwards too; back to loop at the end.
        if (i === Math.floor(SEEKS / 2)) await post(s, '/transport/loop', { mode: 'ping-pong' });
        const r = await req('POST', `${s.base}/api/v1/transport/seek`, {
          body: { positionS: Math.random() * (COLOURS.length - 0.1) },
          timeoutMs: 20000,
        });
        // A 504 ACTIVATION_TIMEOUT on a loaded machine is counted, not fatal: the descriptors are the point here.
        if (r.status !== 200) failedSeeks++;
      }
      await post(s, '/transport/loop', { mode: 'loop' });
      rounds.push({ ...(await settledDescriptors(pid, start.count)), failedSeeks });
    }
    const last = rounds.at(-1)?.count ?? start.count;
    return { start: start.count, rounds, holds: last <= start.count + SLACK, now: descriptors(pid) };
  } finally {
    await s.cleanup();
    await rm(work, { recursive: true, force: true });
  }
}

// --- 2. DMX flood ---

async function dmxProbe() {
  const dmxPort = await freeUdpPort();
  const s = await startServer({
    env: QUIET,
    config: {
      live: NO_LIVE,
      dmx: { enabled: true, protocol: 'artnet', universe: 0, address: 1, port: dmxPort, personality: { layers: 4, params: 4 } },
    },
  });
  const desk = await udpSender();
  try {
    const phaseMs = (SECONDS * 1000) / DMX_PAIRS;
    const quiet = { latencies: [] as number[], failures: 0 };
    const flood = { latencies: [] as number[], failures: 0, sent: 0 };
    const before = await get(s, '/dmx');
    // Quiet and flood alternate, so a drift of the machine's load over the run falls on both.
    for (let pair = 0; pair < DMX_PAIRS; pair++) {
      const q = await pollStatus(s.port, phaseMs);
      quiet.latencies.push(...q.latencies);
      quiet.failures += q.failures;
      const stop = artNetFlood(desk, dmxPort, 0, DMX_FPS);
      const f = await pollStatus(s.port, phaseMs);
      flood.sent += stop();
      flood.latencies.push(...f.latencies);
      flood.failures += f.failures;
    }
    await sleep(500);
    const after = await req('GET', `${s.base}/api/v1/dmx`, { timeoutMs: 5000 }).catch(() => null);
    const status = await req('GET', `${s.base}/api/v1/status`, { timeoutMs: 5000 }).catch(() => null);
    const alive = s.proc.exitCode === null && s.proc.signalCode === null && status?.status === 200;
    const a = after?.status === 200 ? after.json() : null;
    const counts = a && {
      frames: a.frames - before.frames,
      applied: a.applied - before.applied,
      dropped: a.dropped - before.dropped,
      rejected: a.rejected - before.rejected,
    };
    const summary = (x: { latencies: number[]; failures: number }) => ({
      p50: pct(x.latencies, 0.5),
      p99: pct(x.latencies, 0.99),
      n: x.latencies.length,
      failures: x.failures,
    });
    return { quiet: summary(quiet), flood: { ...summary(flood), sent: flood.sent }, counts, alive, holds: alive && flood.failures === 0 };
  } finally {
    desk.close();
    await s.cleanup();
  }
}

// --- 3. Crash rounds ---

interface CrashRound {
  killMs: number;
  acked: Record<Change['kind'], number>;
  /** Non-200 answers by route and status: changes not acknowledged, so not expected back. */
  refused: Record<string, number>;
  inFlight: Change['kind'] | null;
  lost: string[] | null;
}

async function crashProbe() {
  const dataDir = await tempDir('vjd-probe-crash-');
  const rounds: CrashRound[] = [];
  let acked: Acked | null = null;
  let inFlight: Change | null = null;
  let seq = 0;
  try {
    // One start more than rounds: each start checks what the kill before it left.
    for (let round = 0; round <= ROUNDS; round++) {
      const s = await startServer({ dataDir, env: QUIET, config: { live: NO_LIVE } });
      const show = await readShow(s.base);
      if (acked) rounds[round - 1]!.lost = lost(show, acked, inFlight);
      if (round === ROUNDS) {
        await s.stop();
        break;
      }
      // Effects with a float input, so every added effect can take a parameter change; generators to cue.
      const floats = new Map<string, { name: string; min: number; max: number }>();
      for (const e of (await get(s, '/effects/available')).items) {
        const f = e.inputs.find((i: any) => i.type === 'float' && typeof i.min === 'number' && typeof i.max === 'number');
        if (f) floats.set(e.type, f);
      }
      const types = [...floats.keys()];
      const generators = (await get(s, '/sources')).items.filter((i: any) => i.sourceKind === 'generator').map((i: any) => i.id as string);
      // From what the server shows, so a loss in one round is reported once rather than in every later round.
      let a: Acked = {
        scenes: acked?.scenes ?? [],
        dimmer: show.dimmer,
        chain: show.chain.map((i: any) => ({ type: i.type, values: {} })),
        preview: show.preview,
      };
      const next = (step: number): Change => {
        seq++;
        const kind = (['scene', 'dimmer', 'chain', 'params', 'cue'] as const)[step % 5]!;
        const lastItem = a.chain.at(-1);
        const input = lastItem && floats.get(lastItem.type);
        // The community ceiling is 8 effects; at 6, chain steps remove the first instead of adding.
        if (kind === 'scene' && a.scenes.length < 60) return { kind: 'scene', name: `probe ${round + 1}.${seq}` };
        if (kind === 'cue') return { kind: 'cue', id: generators.filter((g: string) => g !== a.preview)[seq % (generators.length - 1)]! };
        if (kind === 'params' && input)
          return {
            kind: 'params',
            index: a.chain.length,
            input: input.name,
            value: input.min + ((input.max - input.min) * ((seq % 89) + 1)) / 91,
          };
        if (kind === 'chain' || kind === 'params')
          return a.chain.length >= 6 ? { kind: 'remove', index: 1 } : { kind: 'add', type: types[seq % types.length]! };
        return { kind: 'dimmer', value: (seq % 9999) / 10000 };
      };
      const r: CrashRound = {
        killMs: 100 + Math.floor(Math.random() * 1400),
        acked: { scene: 0, dimmer: 0, add: 0, remove: 0, params: 0, cue: 0 },
        refused: {},
        inFlight: null,
        lost: null,
      };
      let killedAt = 0;
      let killer: NodeJS.Timeout | undefined;
      for (let step = 0; ; step++) {
        // The first five steps (one of each kind) are the round's set; the kill falls at a random moment after.
        const kill = (): void => {
          killedAt = Date.now();
          s.proc.kill('SIGKILL');
        };
        if (step === 5) killer = setTimeout(kill, r.killMs);
        if (step === MAX_STEPS) kill();
        const c = next(step);
        const [route, body] = routeOf(c);
        let res;
        try {
          res = await req('POST', `${s.base}/api/v1${route}`, { body, timeoutMs: 20000 });
        } catch (err) {
          if (!killedAt) throw new Error(`round ${round + 1}: ${route} failed before the kill: ${(err as Error).message}`);
          // Sent at or after the kill: it may or may not have reached the disk.
          inFlight = c;
          r.inFlight = c.kind;
          break;
        }
        if (res.status !== 200) {
          const key = `${route} ${res.status}`;
          r.refused[key] = (r.refused[key] ?? 0) + 1;
          continue;
        }
        // The answer holds the value as applied (clamped): that is what was acknowledged.
        if (c.kind === 'params') c.value = res.json().current.inputs.find((i: any) => i.name === c.input).value;
        a = applyChange(a, c);
        r.acked[c.kind]++;
      }
      clearTimeout(killer);
      await s.stop();
      rounds.push(r);
      acked = a;
    }
    const holds = rounds.every((r) => r.lost?.length === 0);
    return { rounds, scenes: acked?.scenes.length ?? 0, holds };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

// --- Run and report ---

async function attempt<T>(name: string, part: () => Promise<T>): Promise<T | { error: string }> {
  const t0 = Date.now();
  try {
    const r = await part();
    process.stderr.write(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    return r;
  } catch (err) {
    return {
      error: String((err as Error).message ?? err)
        .split('\n')[0]!
        .slice(0, 300),
    };
  }
}

const fd = await attempt('descriptors', descriptorProbe);
const dmx = await attempt('dmx', dmxProbe);
const crash = await attempt('crash', crashProbe);

const yes = (b: boolean): string => (b ? 'yes' : '**no**');
const rows: string[] = [];
if ('error' in fd) rows.push(`| descriptors under seeks | failed: ${fd.error} | **no** |`);
else {
  const counts = [fd.start, ...fd.rounds.map((r) => `${r.count}${r.settled ? '' : '?'}`)].join(' → ');
  const failed = fd.rounds.reduce((n, r) => n + r.failedSeeks, 0);
  rows.push(
    `| descriptors under seeks (${ROUNDS} × ${SEEKS} seeks + ping-pong) | ${counts}${failed ? `; ${failed} seeks not 200` : ''} | ${yes(fd.holds)} |`,
  );
}
if ('error' in dmx) rows.push(`| DMX flood | failed: ${dmx.error} | **no** |`);
else {
  rows.push(
    `| GET /status without DMX | p50 ${dmx.quiet.p50} ms, p99 ${dmx.quiet.p99} ms (n ${dmx.quiet.n}, failed ${dmx.quiet.failures}) | |`,
  );
  rows.push(
    `| GET /status under ${DMX_FPS} fps Art-Net, 512 channels changing | p50 ${dmx.flood.p50} ms, p99 ${dmx.flood.p99} ms (n ${dmx.flood.n}, failed ${dmx.flood.failures}); ${dmx.flood.sent} frames sent, ${JSON.stringify(dmx.counts)} | |`,
  );
  rows.push(`| server alive after the flood | ${dmx.alive ? 'GET /status 200' : 'no answer'} | ${yes(dmx.holds)} |`);
}
if ('error' in crash) rows.push(`| SIGKILL rounds | failed: ${crash.error} | **no** |`);
else
  crash.rounds.forEach((r, i) => {
    const acked = Object.entries(r.acked)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    const refused = Object.keys(r.refused).length ? `; not 200: ${JSON.stringify(r.refused)}` : '';
    const lostText = r.lost === null ? 'not checked' : r.lost.length ? `lost: ${r.lost.join('; ')}` : 'all present';
    rows.push(
      `| SIGKILL round ${i + 1} (${r.killMs} ms into the burst) | acked ${acked}; in flight: ${r.inFlight ?? 'none'}${refused}; ${lostText} | ${yes(r.lost?.length === 0)} |`,
    );
  });

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`;
const md = [
  `Trust probe (${machine}; ${new Date().toISOString().slice(0, 10)}; ${ROUNDS} rounds, ${SECONDS} s of DMX flood)`,
  '',
  '| check | measured | holds |',
  '|---|---|---|',
  ...rows,
  '',
].join('\n');
process.stdout.write(md);
const dir = join(ROOT, 'bench', 'results');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'trust-probe.md'), md);
await writeFile(
  join(dir, 'trust-probe.json'),
  `${JSON.stringify({ date: new Date().toISOString(), machine, seconds: SECONDS, rounds: ROUNDS, descriptors: fd, dmx, crash }, null, 2)}\n`,
);
if (rows.some((r) => r.endsWith('| **no** |'))) process.exitCode = 1;
