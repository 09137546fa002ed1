// The show link benchmark: a real mosquitto and three real servers on loopback (leader "a", members "b" and "c" in
// group "screens", 320×180 at 30 fps, as test/show/leader.test.ts has them). Measures a command on cmd/all to every
// box's reply, the spread of a mirrored scheduled switch across the boxes' frames, a killed member's way back onto the
// show's scene, and puts the measured payload sizes into an estimate for a 50-box show. Writes
// bench/results/show-link.{md,json}.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt, { type MqttClient } from 'mqtt';
import { startBroker, type TestBroker } from '../test/helpers/mosquitto.js';
import { freePort, req, sleep, startServer, tempDir, waitUntil, type TestServer } from '../test/helpers/server.js';
import { pct } from './show-lib.js';
import { fiftyBoxShow, type Flow, type Sizes, total } from './show-link-paper.js';

const SHOW = 'bench';
const FPS = 30;
const PERIOD = 1000 / FPS;
const COMMANDS = Number(process.env.VJD_BENCH_SHOW_COMMANDS ?? 100);
const PACE_MS = 50;
const SWITCHES = Number(process.env.VJD_BENCH_SHOW_SWITCHES ?? 50);
const BEAT_SWITCHES = 10;
const AHEAD_MS = 400;
const RESTARTS = Number(process.env.VJD_BENCH_SHOW_RESTARTS ?? 5);
const BLACKOUT = 'POST /api/v1/global/blackout';
const NAMES = ['a', 'b', 'c'] as const;
type Name = (typeof NAMES)[number];

const config = (broker: TestBroker, box: Name) => ({
  show: { name: SHOW, box, broker: { url: broker.url }, groups: ['screens'], leader: box === 'a' },
  render: { width: 320, height: 180, fps: FPS },
});
const until = (cond: () => Promise<boolean> | boolean, stepMs = 50) => waitUntil(cond, 60_000, stepMs);
const get = async (s: TestServer, path: string) => (await req('GET', `${s.base}/api/v1${path}`)).json();
const post = (s: TestServer, path: string, body: unknown) => req('POST', `${s.base}/api/v1${path}`, { body, timeoutMs: 20_000 });
const current = async (base: string): Promise<string> => (await req('GET', `${base}/api/v1/sources/current`)).json().id;
const median = (xs: number[]): number => pct(xs, 0.5);
const p99 = (xs: number[]): number => pct(xs, 0.99);

/** What the bench's own MQTT client heard: replies by `box/id`, commands on cmd/all by id, the last retained states. */
class Ears {
  readonly replies = new Map<string, { t: number; bytes: number; status: number; text: string }>();
  readonly commands = new Map<string, { at?: string; bytes: number }>();
  readonly last = new Map<string, number>();
  constructor(client: MqttClient) {
    client.on('message', (topic, payload) => {
      const t = performance.now();
      const parts = topic.split('/');
      if (payload.length === 0) return;
      if (parts[2] === 'reply') {
        const text = payload.toString();
        this.replies.set(`${parts[3]}/${parts[4]}`, { t, bytes: payload.length, status: JSON.parse(text).status, text });
      } else if (parts[2] === 'cmd') {
        const cmd = JSON.parse(payload.toString());
        this.commands.set(cmd.id, { at: cmd.at, bytes: payload.length });
      } else this.last.set(topic, payload.length);
    });
  }
  /** Waits for every box's reply to command `id`; the replies' statuses. */
  async answered(id: string): Promise<number[]> {
    await until(() => NAMES.every((n) => this.replies.has(`${n}/${id}`)));
    return NAMES.map((n) => this.replies.get(`${n}/${id}`)!.status);
  }
}

/** 1. Dimmer commands on cmd/all, one every PACE_MS: publish → each box's reply, per box. */
async function commandLatency(client: MqttClient, ears: Ears): Promise<Record<Name, number[]> & { refused: number }> {
  const sent = new Map<string, number>();
  const t0 = performance.now();
  for (let i = 0; i < COMMANDS; i++) {
    // Paced on a fixed grid, so a slow publish does not shift the rest.
    await sleep(Math.max(0, t0 + i * PACE_MS - performance.now()));
    const id = `bench-dim-${i}`;
    const payload = JSON.stringify({ id, op: 'POST /api/v1/global/dimmer', body: { value: (i + 1) / COMMANDS } });
    sent.set(id, performance.now());
    void client.publishAsync(`vjd/${SHOW}/cmd/all`, payload, { qos: 1 });
  }
  const out = { a: [] as number[], b: [] as number[], c: [] as number[], refused: 0 };
  for (const [id, t] of sent) {
    const statuses = await ears.answered(id);
    out.refused += statuses.filter((s) => s !== 200).length;
    for (const n of NAMES) out[n].push(ears.replies.get(`${n}/${id}`)!.t - t);
  }
  return out;
}

interface Switch {
  at: string;
  /** Per box a, b, c: the due time of the frame that applied it (epoch ms) and its lateFrames. */
  due: number[];
  late: number[];
  failed: number;
}

/** The record of the blackout scheduled for `at` on each box, once its frame is reported. */
async function records(boxes: TestServer[], at: string): Promise<Switch> {
  const recs = await Promise.all(
    boxes.map(async (s) => {
      let rec: any;
      await until(async () => {
        rec = (await get(s, '/show/scheduled')).recent.find(
          (x: any) => x.op === BLACKOUT && Date.parse(x.at) === Date.parse(at) && x.state !== 'running',
        );
        return rec !== undefined;
      });
      return rec;
    }),
  );
  return {
    at,
    due: recs.map((r) => Date.parse(r.appliedDueAt)),
    late: recs.map((r) => r.lateFrames ?? Number.NaN),
    failed: recs.filter((r) => r.state !== 'applied').length,
  };
}

/** 2. Blackouts mirrored by the leader to `all`, each for an instant AHEAD_MS ahead or for "nextBeat". */
async function switches(boxes: TestServer[], ears: Ears, n: number, beat: boolean): Promise<Switch[]> {
  const out: Switch[] = [];
  for (let i = 0; i < n; i++) {
    const at = beat ? 'nextBeat' : new Date(Date.now() + AHEAD_MS).toISOString();
    const r = await post(boxes[0]!, '/global/blackout', { enabled: i % 2 === 0, show: 'all', at });
    if (r.status !== 202) throw new Error(`mirrored blackout answered ${r.status}: ${r.text}`);
    // The leader sends "nextBeat" as the instant it names: read it from the command as the broker passed it on.
    const id: string = r.json().mirrored.id;
    await until(() => ears.commands.has(id));
    out.push(await records(boxes, ears.commands.get(id)!.at!));
  }
  return out;
}

const spreads = (xs: Switch[]) => {
  const ms = xs.map((x) => Math.max(...x.due) - Math.min(...x.due));
  return {
    n: xs.length,
    spreadMs: { p50: median(ms), p99: p99(ms) },
    spreadFrames: { p50: median(ms.map((m) => m / PERIOD)), p99: p99(ms.map((m) => m / PERIOD)) },
    sameSlot: xs.filter((x) => x.late.every((l) => l === 0)).length,
    maxLate: Math.max(...xs.flatMap((x) => x.late)),
    failed: xs.reduce((t, x) => t + x.failed, 0),
  };
};

/** Recalls `scene` on every box through the leader and waits until each shows its source. */
async function recallAll(ears: Ears, a: TestServer, boxes: TestServer[], scene: string, source: string): Promise<void> {
  const r = await post(a, '/scenes/recall', { name: scene, show: 'all' });
  if (r.status !== 202) throw new Error(`mirrored recall answered ${r.status}: ${r.text}`);
  for (const s of boxes) {
    let now = '';
    await until(async () => (now = await current(s.base)) === source).catch(async (err) => {
      const id = r.json().mirrored.id;
      const replies = NAMES.map((n) => ears.replies.get(`${n}/${id}`)?.status);
      const view = await get(s, '/show');
      const seen = JSON.stringify({ broker: view.broker, counters: view.counters, box: view.box });
      throw new Error(`${s.base} stays on ${now}, not ${source} (recall ${scene}, replies ${replies}): ${err}; show ${seen}`);
    });
  }
}

const SCENES = [
  ['one', 'source:plasma'],
  ['two', 'source:checkerboard'],
] as const;

async function main(): Promise<void> {
  const started: Array<{ cleanup(): Promise<void> }> = [];
  let cDir = '';
  let client: MqttClient | null = null;
  const cleanup = async (): Promise<void> => {
    client?.end(true);
    // Servers before the broker, so none waits on it; each on its own, so one failure leaves no other running.
    for (const p of started.splice(0).reverse()) await p.cleanup().catch(() => undefined);
    if (cDir) await rm(cDir, { recursive: true, force: true });
  };
  // An interrupted bench stops what it started too.
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void cleanup().finally(() => process.exit(130)));
  try {
    const broker = await startBroker();
    started.push(broker);
    cDir = await tempDir('vjd-bench-show-c-');
    // One after another: three starts at once on a loaded 2-core box can miss the helper's 30 s start budget.
    const boxes: TestServer[] = [];
    for (const n of NAMES) {
      const s = await startServer({ ...(n === 'c' ? { dataDir: cDir } : {}), env: { VJD_LOG_LEVEL: 'warn' }, config: config(broker, n) });
      started.push(s);
      boxes.push(s);
    }
    const [a, b] = boxes as [TestServer, TestServer];
    for (const s of boxes)
      for (const [name, source] of SCENES) {
        if ((await post(s, '/sources/select', { id: source })).status !== 200) throw new Error(`select ${source}`);
        if ((await post(s, '/scenes/save', { name })).status !== 200) throw new Error(`save ${name}`);
      }
    await until(async () => (await get(a, '/show')).boxes.filter((x: { online: boolean }) => x.online).length === 3);
    client = await mqtt.connectAsync(broker.url, { protocolVersion: 5, reconnectPeriod: 500 });
    const ears = new Ears(client);
    await client.subscribeAsync([`vjd/${SHOW}/reply/#`, `vjd/${SHOW}/cmd/all`, `vjd/${SHOW}/box/+/state`, `vjd/${SHOW}/leader/#`], {
      qos: 1,
    });

    process.stderr.write('1/4 commands on cmd/all\n');
    const lat = await commandLatency(client, ears);

    process.stderr.write('2/4 scheduled switches\n');
    if ((await post(a, '/tempo/bpm', { bpm: 120 })).status !== 200) throw new Error('tempo');
    for (const s of boxes.slice(1))
      await until(async () => {
        const clock = (await get(s, '/show')).clock;
        return clock.following === 'a' && clock.grid.bpm === 120;
      });
    const instant = spreads(await switches(boxes, ears, SWITCHES, false));
    const beat = spreads(await switches(boxes, ears, BEAT_SWITCHES, true));
    // The last switch may have left the picture black: later measures read sources, not pixels, but keep it plain.
    await post(a, '/global/blackout', { enabled: false, show: 'all' });

    process.stderr.write('3/4 restarts of c\n');
    const rejoin = { connectMs: [] as number[], sceneMs: [] as number[] };
    for (let i = 0; i < RESTARTS; i++) {
      const [[before, beforeSrc], [scene, source]] = i % 2 === 0 ? [SCENES[1], SCENES[0]] : [SCENES[0], SCENES[1]];
      // c runs, and has saved, the other scene than the one the show moves to while it is away.
      await recallAll(ears, a, boxes, before, beforeSrc);
      await sleep(1500);
      const c = boxes[2]!;
      const exited = new Promise((r) => c.proc.once('exit', r));
      c.proc.kill('SIGKILL');
      await exited;
      await until(async () => (await get(a, '/show')).boxes.find((x: { box: string }) => x.box === 'c')?.online === false);
      await recallAll(ears, a, [a, b], scene, source);
      // Polled from the spawn on, on a port chosen ahead, so neither instant waits for startServer's own checks.
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const t0 = Date.now();
      let seen = Number.NaN;
      let polling = true;
      const poll = (async () => {
        while (polling && Number.isNaN(seen)) {
          if ((await current(base).catch(() => '')) === source) seen = Date.now();
          else await sleep(20);
        }
      })();
      const next = await startServer({ dataDir: cDir, port, env: { VJD_LOG_LEVEL: 'warn' }, config: config(broker, 'c') });
      started.push(next);
      boxes[2] = next;
      await until(() => !Number.isNaN(seen), 20).finally(() => {
        polling = false;
      });
      await poll;
      const link = (await get(next, '/show')).broker;
      if (!link.connected) throw new Error('c is not connected');
      const since = Date.parse(link.since);
      rejoin.connectMs.push(since - t0);
      rejoin.sceneMs.push(seen - since);
    }

    process.stderr.write('4/4 payload sizes\n');
    // A real take on cmd/all, mirrored by the leader after a mirrored cue, for its command and reply sizes.
    const cue = await post(a, '/mix/cue', { id: 'source:plasma', show: 'all' });
    if (cue.status !== 202) throw new Error(`mirrored cue answered ${cue.status}: ${cue.text}`);
    await ears.answered(cue.json().mirrored.id);
    const take = await post(a, '/mix/take', { transition: 'cut', show: 'all' });
    if (take.status !== 202) throw new Error(`mirrored take answered ${take.status}: ${take.text}`);
    const takeId: string = take.json().mirrored.id;
    const takeStatuses = await ears.answered(takeId);
    await sleep(1000);
    const sizes: Sizes = {
      show: SHOW,
      box: 'b',
      state: ears.last.get(`vjd/${SHOW}/box/b/state`) ?? Number.NaN,
      tempo: ears.last.get(`vjd/${SHOW}/leader/tempo`) ?? Number.NaN,
      take: ears.commands.get(takeId)!.bytes,
      reply: Math.max(...NAMES.map((n) => ears.replies.get(`${n}/${takeId}`)!.bytes)),
    };

    await report({ lat, instant, beat, rejoin, sizes, takeStatuses });
  } finally {
    await cleanup();
  }
}

async function report(r: {
  lat: Record<Name, number[]> & { refused: number };
  instant: ReturnType<typeof spreads>;
  beat: ReturnType<typeof spreads>;
  rejoin: { connectMs: number[]; sceneMs: number[] };
  sizes: Sizes;
  takeStatuses: number[];
}): Promise<void> {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at the end`;
  const all = [...r.lat.a, ...r.lat.b, ...r.lat.c];
  const latRow = (label: string, xs: number[]) => `| ${label} | ${median(xs)} | ${p99(xs)} | ${xs.length} |`;
  const sw = (label: string, s: ReturnType<typeof spreads>) => [
    `| ${label}: spread of the applying frames' due times across a, b, c (ms) | ${s.spreadMs.p50} | ${s.spreadMs.p99} | ${s.n} |`,
    `| … the same in frames (spread ÷ ${PERIOD.toFixed(1)} ms) | ${s.spreadFrames.p50} | ${s.spreadFrames.p99} | ${s.n} |`,
    `| … switches on every box's first frame due at or after \`at\` (lateFrames 0 / 0 / 0); max lateFrames | ${s.sameSlot} of ${s.n} | max ${s.maxLate} | ${s.n} |`,
  ];
  const flows = fiftyBoxShow(r.sizes);
  const flowRow = (f: Flow) =>
    `| ${f.flow} | ${f.assumption} | ${f.inMsgs} | ${(f.inBytes / 1024).toFixed(1)} | ${f.outMsgs} | ${(f.outBytes / 1024).toFixed(1)} |`;
  const sum = total(flows);
  const table = [
    `Show link on loopback (machine: ${machine}; a shared VM, other work on it): one mosquitto, three vjd boxes (leader a, members b and c in group "screens", 320×180 at 30 fps), one run.`,
    '',
    '| measure | p50 | p99 | runs |',
    '|---|---:|---:|---:|',
    latRow(`dimmer on \`cmd/all\` (one every ${PACE_MS} ms) → reply heard, box a (leader) (ms)`, r.lat.a),
    latRow('… box b (ms)', r.lat.b),
    latRow('… box c (ms)', r.lat.c),
    latRow('… every box', all),
    ...sw(`blackout mirrored to \`all\` for an instant ${AHEAD_MS} ms ahead`, r.instant),
    ...sw('blackout mirrored to `all` for `"nextBeat"` (120 BPM)', r.beat),
    `| c killed (SIGKILL) and restarted: process start → broker connected (ms) | ${median(r.rejoin.connectMs)} | ${p99(r.rejoin.connectMs)} | ${r.rejoin.connectMs.length} |`,
    `| … connected → the show's scene on c's program (ms) | ${median(r.rejoin.sceneMs)} | ${p99(r.rejoin.sceneMs)} | ${r.rejoin.sceneMs.length} |`,
    '',
    `On paper, a 50-box show on one Mosquitto, from payload sizes heard on this broker: a box's state ${r.sizes.state} B, the leader's tempo grid ${r.sizes.tempo} B, a take on \`cmd/all\` ${r.sizes.take} B, a box's reply to it ${r.sizes.reply} B (box names of one character: each character of a name adds 1-2 B to its messages). Every message is QoS 1; bytes are MQTT 5 packets with their PUBACKs, without TCP/IP. One operator client hears the replies.`,
    '',
    '| flow | assumption | broker in msg/s | in KiB/s | broker out msg/s | out KiB/s |',
    '|---|---|---:|---:|---:|---:|',
    ...flows.map(flowRow),
    flowRow(sum),
  ].join('\n');
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'show-link.md'), `${table}\n`);
  const { lat, ...rest } = r;
  const stat = (xs: number[]) => ({ p50: median(xs), p99: p99(xs), n: xs.length });
  const commandToReplyMs = { a: stat(lat.a), b: stat(lat.b), c: stat(lat.c), all: stat(all), refused: lat.refused };
  const json = { date: new Date().toISOString(), machine, fps: FPS, aheadMs: AHEAD_MS, paceMs: PACE_MS, commandToReplyMs, ...rest };
  await writeFile(join(dir, 'show-link.json'), `${JSON.stringify({ ...json, paper: { flows, total: sum } }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
  process.exit(0);
}
