// The audio ffmpeg children of a running vjd, found in /proc by their PCM output format, for tests that stop or
// kill them as a broken device or a crash would.
import { readdir, readFile } from 'node:fs/promises';

export async function audioFfmpegPids(serverPid: number): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== serverPid) continue;
      const cmd = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0');
      if (cmd.includes('f32le')) out.push(Number(name));
    } catch {
      // the process ended while it was read
    }
  }
  return out;
}
