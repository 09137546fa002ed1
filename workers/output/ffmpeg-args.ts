// ffmpeg command lines of the output kinds: raw RGBA program frames on stdin; H.264 out (stream, record), an
// SDL window on an X display (display) or raw YUV into a v4l2loopback camera (v4l2).
import { join } from 'node:path';
import { MUXER, checkStreamUrl } from '../../src/outputs/url.js';
import type { OutputSpec } from '../../src/shared/messages.js';

/** `<id>-<UTC timestamp>.mkv`, e.g. `rec-1-20261124T091427123Z.mkv`: sortable, never from the network. */
export function recordingName(id: string, now = new Date()): string {
  return `${id}-${now.toISOString().replace(/[-:.]/g, '')}.mkv`;
}

/**
 * Arguments for one consumer. `source` is the ring's frame size (render size); frames arrive bottom-up, so the
 * filter chain flips them, then scales to the output size (even numbers: 4:2:0 chroma needs them).
 * Returns the file written for the record kind.
 */
export function buildOutputArgs(
  id: string,
  spec: OutputSpec,
  source: { width: number; height: number },
  now = new Date(),
  screen?: { width: number; height: number },
): { args: string[]; file?: string; size?: { width: number; height: number } } {
  const w = spec.width - (spec.width % 2);
  const h = spec.height - (spec.height % 2);
  const input = ['-hide_banner', '-nostats', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${source.width}x${source.height}`, '-r', String(spec.fps), '-i', 'pipe:0'];
  if (spec.kind === 'display') return displayArgs(id, spec, input, screen);
  if (spec.kind === 'v4l2') {
    // yuv420p is what browsers and OBS read from a v4l2loopback camera without a conversion of their own.
    return { args: [...input, '-an', '-vf', `vflip,scale=${w}:${h}:flags=bilinear,format=yuv420p`, '-f', 'v4l2', spec.device!] };
  }
  const kbps = spec.bitrateKbps;
  const video = [
    '-an',
    '-vf', `vflip,scale=${w}:${h}:flags=bilinear,format=yuv420p`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency',
    // A keyframe every second: a receiver that joins late shows a picture within a second.
    '-g', String(spec.fps), '-keyint_min', String(spec.fps), '-sc_threshold', '0',
    '-b:v', `${kbps}k`, '-maxrate', `${kbps}k`, '-bufsize', `${Math.max(1, Math.round(kbps / 2))}k`,
  ];
  if (spec.kind === 'record') {
    const file = join(spec.dir!, recordingName(id, now));
    // Matroska with short clusters: a file cut by SIGKILL still plays up to its last cluster.
    return { args: [...input, ...video, '-f', 'matroska', '-cluster_time_limit', '1000', '-flush_packets', '1', '-y', file], file };
  }
  const check = checkStreamUrl(spec.url ?? '');
  // The service validated the URL already; a spec that fails here is a bug, never something ffmpeg should see.
  if (!check.ok) throw new Error(`output ${id}: refused URL (${check.reason})`);
  return { args: [...input, ...video, '-f', MUXER[check.scheme], '-flush_packets', '1', spec.url!] };
}

/**
 * SDL2 window (ffmpeg's sdl2 device; measured cheapest of the devices that work under Xvfb, see README): the
 * program at render size, scaled by SDL to the window with its aspect kept. Without geometry it is a
 * fullscreen window of the screen's size (SDL's fullscreen alone stays frame-sized without a window manager);
 * with geometry a borderless window there, never a video mode change.
 */
function displayArgs(id: string, spec: OutputSpec, input: string[], screen?: { width: number; height: number }): { args: string[]; size: { width: number; height: number } } {
  const win = spec.window!;
  if (!screen) throw new Error(`output ${id}: display ${win.display} has no known screen size`);
  const width = win.width ?? Math.max(16, screen.width - win.x);
  const height = win.height ?? Math.max(16, screen.height - win.y);
  const place = win.fullscreen
    ? ['-window_fullscreen', '1']
    : ['-window_borderless', '1', '-window_x', String(win.x), '-window_y', String(win.y)];
  const title = `vjd ${id}`;
  return {
    args: [...input, '-an', '-vf', 'vflip', '-f', 'sdl2', '-window_title', title, '-window_enable_quit', '0', ...place, '-window_size', `${width}x${height}`, title],
    size: { width, height },
  };
}
