// ffmpeg command lines of the output kinds: raw program frames with their slot times on stdin (Matroska, see
// mkv-pipe.ts), then what the output's kind descriptor adds (H.264 to a URL or a file, an SDL window, raw YUV into
// a v4l2loopback camera).
import type { PixelLayout } from '../../src/shared/frame-ring.js';
import { outputKind, type OutputSpec } from '../../src/shared/output-kinds/index.js';
import type { BuiltArgs, Size } from '../../src/shared/output-kinds/types.js';

export { recordingName } from '../../src/shared/output-kinds/record.js';

/**
 * Arguments for one consumer. The frame size, layout, colours and rate come with the stream's header (mkv-pipe.ts).
 * I420 frames arrive upright; RGBA ones bottom-up, as GL reads them, so the first filter flips them. Returns the
 * file written for the record kind, the window for a display. A shared encoder brings its own (`own`).
 */
export function buildOutputArgs(
  id: string,
  spec: OutputSpec,
  layout: PixelLayout,
  now = new Date(),
  screen?: Size,
  own?: (input: string[], now: Date, screen?: Size) => BuiltArgs,
): BuiltArgs {
  const input = ['-hide_banner', '-nostats', '-loglevel', 'error', '-f', 'matroska', '-i', 'pipe:0'];
  const built = own ? own(input, now, screen) : outputKind<typeof spec>(spec.kind).args(id, spec, input, now, screen);
  return layout === 'rgba' ? { ...built, args: flipFirst(built.args, input.length) } : built;
}

/** `vflip` ahead of the output's own filters (or as its only one), right after the input. */
function flipFirst(args: string[], inputLength: number): string[] {
  const vf = args.indexOf('-vf', inputLength);
  if (vf >= 0) return args.map((a, i) => (i === vf + 1 ? `vflip,${a}` : a));
  return [...args.slice(0, inputLength), '-vf', 'vflip', ...args.slice(inputLength)];
}
