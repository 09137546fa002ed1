// True time at 1280×720 with the render slowed: a recording and a UDP stream run side by side for a while (their
// encoders fall behind on a small box), then the recording's length is set against the wall time and the stream's
// timestamps against their arrival. With VJD_BENCH_BASELINE=<checkout with dist/> that build runs the same show.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { req, sleep, startServer, waitUntil } from '../test/helpers/server.js';
import { freeUdpPort, run } from '../test/outputs/media.js';
import { ptsDrift, ptsReceiver } from '../test/outputs/true-time-media.js';

const WIDTH = 1280;
const HEIGHT = 720;
const RUN_MS = 30_000;
/** The render sleeps this long per frame (slow-frames hook), on top of its own work. */
const SLOW_MS = 20;

interface Row {
  build: string;
  seconds: number;
  recordingRatio: number;
  streamDriftPct: number;
  recording: { sent: number; dropped: number; repeated: number };
  stream: { sent: number; dropped: number; repeated: number };
}

async function show(build: string, cli?: string): Promise<Row> {
  const s = await startServer({
    ...(cli ? { cli } : {}),
    config: {
      render: { width: WIDTH, height: HEIGHT, fps: 30 },
      live: {
        test: [{ id: 'cam', name: 'testsrc2', pattern: `testsrc2=size=${WIDTH}x${HEIGHT}:rate=30` }],
        streams: [],
        v4l2: { enabled: false },
      },
      outputs: [{ id: 'rec', kind: 'record', enabled: false }],
    },
  });
  const api = (p: string): string => `${s.base}/api/v1${p}`;
  const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 20000 });
  const outputs = async () => (await req('GET', api('/outputs'))).json().items as Array<Record<string, any>>;
  const port = await freeUdpPort();
  const rx = await ptsReceiver(port);
  try {
    await post('/sources/select', { id: 'cam' });
    await post('/_test/slow-frames', { ms: SLOW_MS, frames: 10_000 });
    await post('/outputs/add', { kind: 'stream', name: 'lan', url: `udp://127.0.0.1:${port}?pkt_size=1316` });
    await post('/outputs/enabled', { id: 'rec', enabled: true });
    let startedAt = NaN;
    await waitUntil(
      async () => Number.isFinite((startedAt = Date.parse((await outputs()).find((o) => o.id === 'rec')?.startedAt ?? ''))),
      30000,
    );
    await sleep(Math.max(0, startedAt + RUN_MS - Date.now()));
    const sentAt = Date.now();
    await post('/outputs/enabled', { id: 'rec', enabled: false });
    const answeredAt = Date.now();
    await waitUntil(async () => (await outputs()).find((o) => o.id === 'rec')?.state === 'stopped', 30000);
    const all = await outputs();
    const rec = all.find((o) => o.id === 'rec')!;
    const lan = all.find((o) => o.id !== 'rec')!;
    const probe = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      join(s.dataDir, 'recordings', rec.target),
    ]);
    const wall = (sentAt + answeredAt) / 2 - startedAt;
    const counts = (o: Record<string, any>) => ({ sent: o.framesSent, dropped: o.framesDropped, repeated: o.framesRepeated });
    return {
      build,
      seconds: Math.round(wall / 100) / 10,
      recordingRatio: Math.round((Number(probe.stdout) * 1000 * 1000) / wall) / 1000,
      streamDriftPct: Math.round(ptsDrift(rx.frames).drift * 1000) / 10,
      recording: counts(rec),
      stream: counts(lan),
    };
  } finally {
    rx.socket.close();
    await s.cleanup();
  }
}

export async function trueTimeBench(): Promise<Row[]> {
  const rows = [await show('this build')];
  const base = process.env.VJD_BENCH_BASELINE;
  if (base) rows.push(await show('baseline', join(resolve(base), 'dist', 'src', 'cli.js')));
  return rows;
}

export function trueTimeTable(rows: Row[]): string {
  return [
    `1280×720 @ 30, render slowed by ${SLOW_MS} ms a frame, a recording and a UDP stream (x264, default bitrate) for about ${RUN_MS / 1000} s:`,
    '',
    '| build | recording ÷ wall | stream drift | recording sent / dropped / repeated | stream sent / dropped / repeated |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.build} | ${r.recordingRatio.toFixed(3)} | ${r.streamDriftPct.toFixed(1)} % | ${r.recording.sent} / ${r.recording.dropped} / ${r.recording.repeated} | ${r.stream.sent} / ${r.stream.dropped} / ${r.stream.repeated} |`,
    ),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await trueTimeBench();
  const table = trueTimeTable(rows);
  const out = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'true-time.md'), `${table}\n`);
  await writeFile(join(out, 'true-time.json'), `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
  process.stdout.write(`${table}\n`);
}
