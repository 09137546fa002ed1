// Pixel-out sender entry: reads the fixture samples the render worker writes, at the fixture rate on this thread (so
// the main thread's load never delays a universe), and sends Art-Net / sACN to the configured destinations only.
import { createSocket, type Socket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { logTo } from '../../src/shared/protocol/common.js';
import type { MainToPixelOut, PixelOutInit, PixelOutSettings, PixelOutToMain } from '../../src/shared/protocol/pixelout.js';
import { type Datagram, Frames } from './frames.js';

if (!parentPort) throw new Error('workers/pixelout/main.js runs as a worker thread');
const port = parentPort;
const init = workerData as PixelOutInit;

const post = (msg: PixelOutToMain): void => port.postMessage(msg);
const log = logTo(post);

let socket: Socket | null = null;
let frames: Frames | null = null;
let settings: PixelOutSettings | null = null;
let timer: NodeJS.Timeout | null = null;
/** When the next tick is due (performance.now() ms): ticks keep the rate even when one runs late. */
let due = 0;
let stopping = false;
const stats = { sentInPeriod: 0, framesSent: 0, lastError: null as string | null, periodStart: performance.now() };

/** One socket for every destination, bound to any port; broadcast allowed so a configured subnet broadcast works. */
async function openSocket(): Promise<Socket> {
  if (socket) return socket;
  const s = createSocket({ type: 'udp4', reuseAddr: false });
  s.on('error', (err) => note(`socket: ${err.message}`));
  await new Promise<void>((resolve) => s.bind(0, () => resolve()));
  s.setBroadcast(true);
  socket = s;
  return s;
}

function note(error: string): void {
  if (error !== stats.lastError) log('warn', 'pixel-out send problem', { error });
  stats.lastError = error;
}

function send(s: Socket, d: Datagram): Promise<void> {
  return new Promise((resolve) => {
    s.send(d.packet, d.port, d.address, (err) => {
      if (err) note(`${(err as NodeJS.ErrnoException).code ?? err.message} sending to ${d.address}:${d.port}`);
      else stats.sentInPeriod++;
      resolve();
    });
  });
}

function tick(): void {
  timer = null;
  if (!frames || !settings || !socket || stopping) return;
  const s = socket;
  try {
    const out = frames.tick(Date.now());
    if (out.length > 0) stats.framesSent++;
    for (const d of out) void send(s, d);
  } catch (err) {
    note(`tick: ${(err as Error).message}`);
  }
  const period = 1000 / settings.rateHz;
  due += period;
  const now = performance.now();
  // Far behind (a paused thread): start again from now instead of sending a burst to catch up.
  if (due < now - period) due = now;
  timer = setTimeout(tick, Math.max(0, due - now));
}

async function apply(next: PixelOutSettings): Promise<void> {
  await openSocket();
  settings = next;
  frames = new Frames(init, next, frames);
  for (const why of frames.universes.refused) note(why);
  const s = socket;
  if (s) await Promise.all(frames.farewell.map((d) => send(s, d)));
  if (timer) clearTimeout(timer);
  timer = null;
  if (frames.universes.list.length === 0) return;
  due = performance.now();
  tick();
}

async function stop(id: number): Promise<void> {
  stopping = true;
  if (timer) clearTimeout(timer);
  clearInterval(statsTimer);
  const s = socket;
  if (s && frames) await Promise.all(frames.terminate().map((d) => send(s, d)));
  s?.close();
  post({ t: 'stopped', id });
}

const statsTimer = setInterval(() => {
  const now = performance.now();
  const seconds = Math.max(0.001, (now - stats.periodStart) / 1000);
  post({
    t: 'stats',
    packetsPerSecond: Math.round(stats.sentInPeriod / seconds),
    framesSent: stats.framesSent,
    lastError: stats.lastError,
  });
  stats.sentInPeriod = 0;
  stats.periodStart = now;
}, init.statsMs);

/** Messages apply one after another: a patch change must not race the socket opening or a stop. */
let queue: Promise<void> = Promise.resolve();

port.on('message', (msg: MainToPixelOut) => {
  queue = queue.then(async () => {
    if (stopping) return;
    try {
      if (msg.t === 'fixtures') await apply(msg);
      else if (msg.t === 'stop') await stop(msg.id);
    } catch (err) {
      note(`${msg.t}: ${(err as Error).message}`);
    }
  });
});
