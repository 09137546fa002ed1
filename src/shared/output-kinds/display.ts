// The display kind: the program in an SDL2 window on a local X display (a projector), fullscreen or placed.
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { OUTPUT_LIMITS } from '../../limits.js';
import type { OutputKindDescriptor, Size, SpecBase, TargetCheck } from './types.js';

/** A local X display, `:N` or `:N.S`: vjd never opens a remote X server (TCP) for a projector. */
export const DISPLAY_RE = /^:\d{1,4}(\.\d{1,2})?$/;
export const DEFAULT_DISPLAY = ':0';
const PROBE_TIMEOUT_MS = 5000;
const CONNECT_TIMEOUT_MS = 1000;

export interface DisplaySpec extends SpecBase {
  kind: 'display';
  /** The X display (`:0`, `:0.1`) and the window; no width/height means the rest of the screen from x, y. */
  window: { display: string; x: number; y: number; width?: number; height?: number; fullscreen: boolean };
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

/** A local X server listens on its socket (the abstract one Linux X servers open, or the file); no child process. */
export async function xServerReachable(display: string): Promise<boolean> {
  if (!DISPLAY_RE.test(display)) return false;
  const n = display.slice(1).split('.')[0];
  const path = `/tmp/.X11-unix/X${n}`;
  return (await socketAnswers(`\0${path}`)) || (await socketAnswers(path));
}

/**
 * Opens the display the way the output will (ffmpeg's x11grab, no extra package) and reads the screen size from
 * the stream it reports: that is the window a fullscreen output needs, and a failure says the X server is not there.
 */
function probeScreen(display: string, ffmpeg: string): Promise<TargetCheck> {
  return new Promise((resolve) => {
    execFile(
      ffmpeg,
      ['-hide_banner', '-nostdin', '-f', 'x11grab', '-i', display],
      { timeout: PROBE_TIMEOUT_MS },
      (_err, _stdout, stderr) => {
        const m = /Stream #0:0: Video: .*?, (\d{2,5})x(\d{2,5})/.exec(stderr);
        if (m) return resolve({ ok: true, screen: { width: Number(m[1]), height: Number(m[2]) } });
        const why = /Cannot open display[^\n]*/.exec(stderr)?.[0] ?? (stderr.trim().split('\n').pop() || 'no answer');
        resolve({ ok: false, reason: `X display ${display} is not reachable (${why.trim()}): start X there or set the output's display` });
      },
    );
  });
}

export const displayKind: OutputKindDescriptor<'display', DisplaySpec> = {
  kind: 'display',
  fromApi: false,
  fields: {
    display: { type: 'string', maxLength: 16, what: 'an X display', example: ':0' },
    x: { type: 'integer', ...OUTPUT_LIMITS.x },
    y: { type: 'integer', ...OUTPUT_LIMITS.y },
  },
  problem(o) {
    if (o.display !== undefined && !DISPLAY_RE.test(o.display))
      return { field: 'display', reason: 'must be a local X display such as ":0" or ":0.1"' };
    return null;
  },
  built: (_encoders, devices) => /^\s*D?E\s+\S*\bsdl2\b/m.test(devices),
  attached: async ({ displays }) => (await Promise.all(displays.map(xServerReachable))).some(Boolean),
  spec(o, { size, bitrateKbps }) {
    // No geometry at all: the whole screen, as a fullscreen window; any of x, y, width, height: that window.
    const fullscreen = o.x === undefined && o.y === undefined && o.width === undefined && o.height === undefined;
    const window = {
      display: o.display ?? DEFAULT_DISPLAY,
      x: o.x ?? 0,
      y: o.y ?? 0,
      fullscreen,
      ...(o.width !== undefined ? { width: o.width } : {}),
      ...(o.height !== undefined ? { height: o.height } : {}),
    };
    return { kind: 'display', ...size, bitrateKbps, window, secrets: [] };
  },
  target: (o) => o.display ?? DEFAULT_DISPLAY,
  checkTarget: (spec, ffmpeg) => probeScreen(spec.window.display, ffmpeg),
  /**
   * SDL2 window (ffmpeg's sdl2 device; measured cheapest of the devices that work under Xvfb, see docs/outputs.md): the
   * program at render size, scaled by SDL to the window with its aspect kept. Without geometry it is a
   * fullscreen window of the screen's size (SDL's fullscreen alone stays frame-sized without a window manager);
   * with geometry a borderless window there, never a video mode change.
   */
  args(id, spec, input, _now, screen?: Size) {
    const win = spec.window;
    if (!screen) throw new Error(`output ${id}: display ${win.display} has no known screen size`);
    const width = win.width ?? Math.max(16, screen.width - win.x);
    const height = win.height ?? Math.max(16, screen.height - win.y);
    const place = win.fullscreen
      ? ['-window_fullscreen', '1']
      : ['-window_borderless', '1', '-window_x', String(win.x), '-window_y', String(win.y)];
    const title = `vjd ${id}`;
    return {
      args: [
        ...input,
        '-an',
        '-f',
        'sdl2',
        '-window_title',
        title,
        '-window_enable_quit',
        '0',
        ...place,
        '-window_size',
        `${width}x${height}`,
        title,
      ],
      size: { width, height },
    };
  },
  // The SDL window opens on its own X display, whatever display the render uses.
  env: (spec) => ({ DISPLAY: spec.window.display }),
};
