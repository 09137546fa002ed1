// Parameter change to the first output frame that shows it, in frame periods at 30 fps: POST /effects/params flips
// brightness_contrast between black and gray at a random phase of the frame clock; the output is then read back
// through the test sample route in a tight loop until it shows the new value. The time counted ends when that
// sample's answer arrives (so it over-counts by one loopback round trip, ~1 ms). Also the POST's own answer time.
// Writes bench/results/params.{md,json}.
import { writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { startServer, sleep, ROOT } from '../test/helpers/server.js';

const RUNS = Number(process.env.VJD_BENCH_RUNS ?? 100);
const FPS = 30;
const WIDTH = Number(process.env.VJD_BENCH_WIDTH ?? 1280);
const HEIGHT = Number(process.env.VJD_BENCH_HEIGHT ?? 720);
const PERIOD = 1000 / FPS;

const agent = new Agent({ keepAlive: true, maxSockets: 2 });

function post(port: number, path: string, body: unknown): Promise<{ status: number; json: any }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: '127.0.0.1',
        port,
        path: `/api/v1${path}`,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
      },
    );
    r.on('error', reject);
    r.end(text);
  });
}

const center = async (port: number): Promise<number> =>
  (await post(port, '/_test/sample', { points: [[0.5, 0.5]] })).json.pixels[0][0] as number;

const s = await startServer({
  config: { render: { width: WIDTH, height: HEIGHT, fps: FPS }, live: { test: [], streams: [], v4l2: { enabled: false } } },
});
const port = s.port;
const frames: number[] = [];
const answers: number[] = [];
try {
  if ((await post(port, '/sources/select', { id: 'source:solid_color' })).status !== 200) throw new Error('select failed');
  await post(port, '/sources/params', { values: { color: '#808080' } });
  await post(port, '/effects/add', { type: 'brightness_contrast' });
  await post(port, '/effects/params', { index: 1, values: { contrast: 1 } });
  await sleep(1000);
  for (let i = 0; i < RUNS; i++) {
    const dark = i % 2 === 0;
    // A random phase against the frame clock, as a fader move would have.
    await sleep(Math.random() * PERIOD);
    const t0 = performance.now();
    const answered = post(port, '/effects/params', { index: 1, values: { brightness: dark ? -1 : 0 } }).then(() =>
      answers.push(performance.now() - t0),
    );
    for (;;) {
      const r = await center(port);
      if (dark ? r < 20 : r > 100) break;
      if (performance.now() - t0 > 5000) throw new Error('the change never showed');
    }
    frames.push((performance.now() - t0) / PERIOD);
    await answered;
  }
} finally {
  agent.destroy();
  await s.cleanup();
}

const pct = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 100) / 100;
};
const result = {
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
  render: `${WIDTH}x${HEIGHT}@${FPS}`,
  runs: RUNS,
  framesP50: pct(frames, 0.5),
  framesP99: pct(frames, 0.99),
  msP50: Math.round(pct(frames, 0.5) * PERIOD * 10) / 10,
  msP99: Math.round(pct(frames, 0.99) * PERIOD * 10) / 10,
  answerMsP50: pct(answers, 0.5),
  answerMsP99: pct(answers, 0.99),
};
const md = [
  `Parameter change to the first output frame showing it (${result.render}, ${RUNS} changes, ${result.machine}; ${new Date().toISOString().slice(0, 10)})`,
  '',
  '| measure | p50 | p99 |',
  '|---|---|---|',
  `| frame periods (33.3 ms) from sending POST /effects/params to the output showing it | ${result.framesP50} | ${result.framesP99} |`,
  `| the same in ms | ${result.msP50} | ${result.msP99} |`,
  `| POST /effects/params answer, ms | ${result.answerMsP50} | ${result.answerMsP99} |`,
  '',
].join('\n');
const dir = join(ROOT, 'bench', 'results');
await writeFile(join(dir, 'params.md'), md);
await writeFile(join(dir, 'params.json'), JSON.stringify(result, null, 2));
console.log(md);
