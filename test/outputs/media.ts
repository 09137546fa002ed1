// Test helpers for outputs: an ffmpeg receiver that decodes what vjd sends, ffprobe, and vjd's ffmpeg children.
import { spawn, execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';

/** A free UDP port on loopback. */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createSocket('udp4');
    s.once('error', reject);
    s.bind(0, '127.0.0.1', () => {
      const port = s.address().port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Listens on udp://127.0.0.1:port, skips `skip` decoded frames (the picture before a change reached it) and
 * returns the next `frames` as rgb24 buffers of width×height. Rejects when ffmpeg ends without them (its
 * socket timeout, `timeoutS` seconds without packets, bounds the wait).
 */
export function receiveUdp(
  port: number,
  width: number,
  height: number,
  frames: number,
  opts: { skip?: number; timeoutS?: number } = {},
): Promise<Buffer[]> {
  const timeoutUs = (opts.timeoutS ?? 20) * 1_000_000;
  return receive(`udp://127.0.0.1:${port}?timeout=${timeoutUs}&fifo_size=1000000&overrun_nonfatal=1`, width, height, frames, opts);
}

/**
 * An ffmpeg receiver reading `input` (any URL ffmpeg opens: an SRT caller, a TCP listener…): skips `skip` decoded
 * frames and returns the next `frames` as rgb24 buffers of width×height. Rejects when ffmpeg ends without them;
 * the URL's own timeout option bounds the wait, and `killAfterS` (default 60) is a last resort.
 */
export function receive(
  input: string,
  width: number,
  height: number,
  frames: number,
  opts: { skip?: number; killAfterS?: number } = {},
): Promise<Buffer[]> {
  const skip = opts.skip ?? 0;
  return new Promise((resolve, reject) => {
    const p = spawn(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-i', input, '-frames:v', String(skip + frames), '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const killer = setTimeout(() => p.kill('SIGKILL'), (opts.killAfterS ?? 60) * 1000);
    const chunks: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (c: Buffer) => chunks.push(c));
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('close', (code, signal) => {
      clearTimeout(killer);
      const all = Buffer.concat(chunks);
      const size = width * height * 3;
      const got = Math.floor(all.length / size);
      if (got < skip + frames)
        return reject(
          new Error(
            `receiver of ${input} got ${got} of ${skip + frames} frames of ${width}x${height} (${all.length} bytes, ${signal ?? `code ${code}`}): ${err}`,
          ),
        );
      const out: Buffer[] = [];
      for (let i = skip; i < skip + frames; i++) out.push(all.subarray(i * size, (i + 1) * size));
      resolve(out);
    });
  });
}

/** Mean RGB of an rgb24 frame. */
export function meanRgb(frame: Buffer): [number, number, number] {
  const sum = [0, 0, 0];
  for (let i = 0; i < frame.length; i += 3) {
    sum[0]! += frame[i]!;
    sum[1]! += frame[i + 1]!;
    sum[2]! += frame[i + 2]!;
  }
  const n = frame.length / 3;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

export function run(cmd: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Format duration (s) and counted video frames of a media file, as ffprobe reads them. */
export async function probe(file: string): Promise<{ duration: number; frames: number; width: number; height: number }> {
  const r = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height,nb_read_frames:format=duration',
    '-of',
    'json',
    file,
  ]);
  if (r.code !== 0) throw new Error(`ffprobe failed on ${file}: ${r.stderr}`);
  const j = JSON.parse(r.stdout) as {
    streams: Array<{ width: number; height: number; nb_read_frames: string }>;
    format: { duration?: string };
  };
  const s = j.streams[0]!;
  return { duration: Number(j.format.duration ?? NaN), frames: Number(s.nb_read_frames), width: s.width, height: s.height };
}
