// Which output kinds this box can run. Found from ffmpeg once at start (stream and record need libx264; display
// the sdl2 device, v4l2 the v4l2 device), and from what is attached, looked at again every few seconds without
// a child process: `display` while an X server answers on the display a display output uses (`:0` when none is
// configured), `v4l2` while a v4l2loopback device exists.
import { execFile } from 'node:child_process';
import { access, readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { OutputKind } from '../shared/messages.js';
import { DISPLAY_RE } from './validate.js';

const PROBE_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 1000;
const REFRESH_MS = 10_000;

function ffmpegList(ffmpeg: string, flag: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(ffmpeg, ['-hide_banner', flag], { timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (err, stdout) => resolve(err ? '' : stdout));
  });
}

/** What the ffmpeg build can do, whatever is attached. */
export async function detectOutputKinds(ffmpeg: string): Promise<OutputKind[]> {
  const [encoders, devices] = await Promise.all([ffmpegList(ffmpeg, '-encoders'), ffmpegList(ffmpeg, '-devices')]);
  const kinds: OutputKind[] = /^\s*V\S*\s+libx264\s/m.test(encoders) ? ['stream', 'record'] : [];
  if (/^\s*D?E\s+\S*\bsdl2\b/m.test(devices)) kinds.push('display');
  if (/^\s*D?E\s+\S*\bv4l2\b/m.test(devices)) kinds.push('v4l2');
  return kinds;
}

function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ path });
    const done = (ok: boolean): void => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(CONNECT_TIMEOUT_MS, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/** A local X server listens on its socket (the abstract one Linux X servers open, or the file). */
export async function xServerReachable(display: string): Promise<boolean> {
  if (!DISPLAY_RE.test(display)) return false;
  const n = display.slice(1).split('.')[0];
  const path = `/tmp/.X11-unix/X${n}`;
  return (await socketAnswers(`\0${path}`)) || (await socketAnswers(path));
}

/** v4l2loopback adds a `max_openers` attribute to each of its nodes: a camera or a capture card has none. */
export async function loopbackPresent(sysfsDir: string): Promise<boolean> {
  let nodes: string[];
  try {
    nodes = (await readdir(sysfsDir)).filter((n) => /^video\d+$/.test(n));
  } catch {
    return false;
  }
  for (const n of nodes) {
    try {
      await access(join(sysfsDir, n, 'max_openers'));
      return true;
    } catch {
      // not a loopback node
    }
  }
  return false;
}

export class OutputKinds {
  private built: OutputKind[] = [];
  private current: OutputKind[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: { ffmpeg: string; displays: () => string[]; sysfsDir: string }) {}

  async start(): Promise<void> {
    this.built = await detectOutputKinds(this.opts.ffmpeg);
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  list(): OutputKind[] {
    return this.current;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async refresh(): Promise<void> {
    const display = this.built.includes('display') && (await Promise.all(this.opts.displays().map(xServerReachable))).some(Boolean);
    const v4l2 = this.built.includes('v4l2') && (await loopbackPresent(this.opts.sysfsDir));
    this.current = this.built.filter((k) => (k === 'display' ? display : k === 'v4l2' ? v4l2 : true));
  }
}
