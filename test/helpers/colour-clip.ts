// A generated media clip for transport tests: one colour per second (1 s keyframes), and a reader of which colour
// the output's middle shows.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sampleOutput } from './server.js';

const run = promisify(execFile);

/** The clip's colour in each second, in order. */
export const COLOURS: Array<[string, [number, number, number]]> = [
  ['red', [255, 0, 0]],
  ['lime', [0, 255, 0]],
  ['blue', [0, 0, 255]],
  ['yellow', [255, 255, 0]],
  ['magenta', [255, 0, 255]],
  ['cyan', [0, 255, 255]],
];

/** Writes `<name>.mp4` into `dir`: the colours in order, one second each, at `fps` with a keyframe every second. */
export async function makeColourClip(dir: string, name: string, fps: number): Promise<string> {
  const inputs = COLOURS.flatMap(([c]) => ['-f', 'lavfi', '-i', `color=c=${c}:s=96x72:r=${fps}:d=1`]);
  const concat = `${COLOURS.map((_, i) => `[${i}]`).join('')}concat=n=${COLOURS.length}:v=1:a=0`;
  const file = join(dir, `${name}.mp4`);
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', ...inputs, '-filter_complex', concat],
    ...['-c:v', 'libx264', '-g', String(fps), '-pix_fmt', 'yuv420p', file],
  ]);
  return file;
}

/** Index of the clip colour the output's middle shows; -1 for black, -2 for anything else. */
export async function shownColour(base: string): Promise<number> {
  const [px] = await sampleOutput(base);
  const [r, g, b] = px as [number, number, number];
  if (r < 40 && g < 40 && b < 40) return -1;
  return COLOURS.findIndex(([, c]) => Math.abs(c[0] - r) < 60 && Math.abs(c[1] - g) < 60 && Math.abs(c[2] - b) < 60);
}
