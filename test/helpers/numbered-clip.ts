// A clip that numbers its own frames: frame n shows n in binary as ten bars (bit 0 on the left), white for a one,
// black for a zero; and a reader of the number the output shows.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sampleOutput } from './server.js';

const run = promisify(execFile);
const BITS = 10;

/** Writes `<name>.mp4`: `seconds` at `fps`, every frame a keyframe so a seek lands on the frame asked for. */
export async function makeNumberedClip(dir: string, name: string, fps: number, seconds: number): Promise<string> {
  const file = join(dir, `${name}.mp4`);
  const lum = `if(bitand(N,pow(2,floor(X*${BITS}/W))),235,16)`;
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=black:s=160x16:r=${fps}:d=${seconds}`],
    ...['-vf', `geq=lum='${lum}':cb=128:cr=128`, '-c:v', 'libx264', '-g', '1', '-pix_fmt', 'yuv420p', file],
  ]);
  return file;
}

/** The frame number the output's middle row shows, or null where a bar is neither black nor white (black: 0). */
export async function shownNumber(base: string): Promise<number | null> {
  const points = Array.from({ length: BITS }, (_, i) => [(i + 0.5) / BITS, 0.5] as [number, number]);
  const px = await sampleOutput(base, points);
  let n = 0;
  for (const [i, p] of px.entries()) {
    const v = p[1]!;
    if (v > 180) n |= 1 << i;
    else if (v > 70) return null;
  }
  return n;
}
