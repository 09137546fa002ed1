// Helpers of the outputs benchmark: CPU ticks of a process tree from /proc, a UDP sink, an ffmpeg receiver that
// timestamps each decoded frame as it arrives, and an MJPEG reader that timestamps each part.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { readFile, readdir } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest } from 'node:http';
import sharp from 'sharp';

export const TICK = 100; // clock ticks per second (/proc/<pid>/stat utime+stime)

async function statFields(pid: number): Promise<string[] | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The process and every descendant (ffmpeg children, Xvfb), found through the ppid field of /proc/<pid>/stat. */
export async function processTree(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = await statFields(Number(name));
    if (f) parents.set(Number(name), Number(f[1]));
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parents) if (ppid === out[i]) out.push(pid);
  return out;
}

async function ticks(pids: number[]): Promise<Map<number, number>> {
  const m = new Map<number, number>();
  for (const pid of pids) {
    const f = await statFields(pid);
    if (f) m.set(pid, Number(f[11]) + Number(f[12]));
  }
  return m;
}

/** CPU of a process tree over `ms`, in % of one core (processes present at both ends). */
export async function treeCpu(root: number, ms: number): Promise<number> {
  const pids = await processTree(root);
  const before = await ticks(pids);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const after = await ticks(pids);
  const elapsed = performance.now() - t0;
  let used = 0;
  for (const [pid, t] of after) if (before.has(pid)) used += t - before.get(pid)!;
  return Math.round(((used / TICK) * 1000 * 1000) / elapsed) / 10;
}

/** A UDP socket on loopback that takes and discards whatever is sent to it. */
export function udpSink(): Promise<{ port: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.on('message', () => undefined);
    socket.bind(0, '127.0.0.1', () => resolve({ port: socket.address().port, socket }));
  });
}

export interface Arrival {
  at: number;
  /** Largest channel mean (0-255): under 10 is a black frame. */
  level: number;
  /** A hash of the decoded picture (receiver frames): equal in a row means a repeated frame. */
  sig?: number;
}

/** A long-running ffmpeg receiver decoding `input` (low-delay decoder, no frame threading) to tiny rgb24 frames. */
export class FrameReceiver {
  readonly frames: Arrival[] = [];
  private readonly proc: ChildProcess;
  private buf: Buffer = Buffer.alloc(0);
  private static readonly W = 32;
  private static readonly H = 18;

  constructor(input: string) {
    const size = FrameReceiver.W * FrameReceiver.H * 3;
    this.proc = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-fflags',
        'nobuffer',
        '-flags',
        'low_delay',
        '-i',
        input,
        '-fps_mode',
        'passthrough',
        '-vf',
        `scale=${FrameReceiver.W}:${FrameReceiver.H}`,
        '-pix_fmt',
        'rgb24',
        '-f',
        'rawvideo',
        '-flush_packets',
        '1',
        '-',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    this.proc.stdout!.on('data', (c: Buffer) => {
      const at = performance.now();
      this.buf = this.buf.byteLength ? Buffer.concat([this.buf, c]) : c;
      while (this.buf.byteLength >= size) {
        const px = this.buf.subarray(0, size);
        this.frames.push({ at, level: level(px), sig: hash(px) });
        this.buf = this.buf.subarray(size);
      }
    });
  }

  close(): void {
    this.proc.kill('SIGKILL');
  }
}

function hash(px: Uint8Array): number {
  let h = 2166136261;
  for (let i = 0; i < px.length; i++) h = Math.imul(h ^ px[i]!, 16777619);
  return h >>> 0;
}

function level(rgb: Uint8Array, channels = 3): number {
  const sum = [0, 0, 0];
  for (let i = 0; i < rgb.length; i += channels) for (let c = 0; c < 3; c++) sum[c]! += rgb[i + c]!;
  return Math.max(...sum) / (rgb.length / channels);
}

/** An MJPEG preview client: parts timestamped on arrival, classified (decoded by sharp) in arrival order. */
export class MjpegReader {
  readonly parts: Arrival[] = [];
  received = 0;
  private buf: Buffer = Buffer.alloc(0);
  private chain: Promise<void> = Promise.resolve();
  private readonly r: ClientRequest;

  constructor(
    url: string,
    private readonly classify = true,
  ) {
    this.r = httpRequest(url, { agent: false }, (res) => {
      const boundary = /boundary=([^;]+)/.exec(String(res.headers['content-type']))?.[1] ?? '';
      res.on('data', (c: Buffer) => this.feed(c, boundary));
      res.on('error', () => undefined);
    });
    this.r.on('error', () => undefined);
    this.r.end();
  }

  private feed(chunk: Buffer, boundary: string): void {
    const at = performance.now();
    this.buf = Buffer.concat([this.buf, chunk]);
    for (;;) {
      const start = this.buf.indexOf(`--${boundary}\r\n`);
      const headEnd = start < 0 ? -1 : this.buf.indexOf('\r\n\r\n', start);
      if (headEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buf.subarray(start, headEnd).toString('latin1'))?.[1]);
      const bodyStart = headEnd + 4;
      if (this.buf.byteLength < bodyStart + length + 2) return;
      const jpeg = Buffer.from(this.buf.subarray(bodyStart, bodyStart + length));
      this.buf = this.buf.subarray(bodyStart + length + 2);
      this.received++;
      if (!this.classify) continue;
      this.chain = this.chain.then(async () => {
        const px = await sharp(jpeg).resize(32, 18, { fit: 'fill' }).removeAlpha().raw().toBuffer();
        this.parts.push({ at, level: level(px) });
      });
    }
  }

  close(): void {
    this.r.destroy();
  }
}

export function percentiles(samples: number[]): { p50: number; p99: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { p50: Math.round(at(0.5)), p99: Math.round(at(0.99)) };
}

export function median(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
