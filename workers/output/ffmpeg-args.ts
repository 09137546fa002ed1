// ffmpeg command lines of the output kinds: raw RGBA program frames with their slot times on stdin (Matroska, see
// mkv-pipe.ts), then what the output's kind descriptor adds (H.264 to a URL or a file, an SDL window, raw YUV into
// a v4l2loopback camera).
import { outputKind, type OutputSpec } from '../../src/shared/output-kinds/index.js';
import type { BuiltArgs, Size } from '../../src/shared/output-kinds/types.js';

export { recordingName } from '../../src/shared/output-kinds/record.js';

/**
 * Arguments for one consumer. The frame size and rate come with the stream's header (mkv-pipe.ts); frames arrive
 * bottom-up, so the kinds' filter chains flip them first. Returns the file written for the record kind, the
 * window for a display. A shared encoder brings its own (`own`).
 */
export function buildOutputArgs(
  id: string,
  spec: OutputSpec,
  now = new Date(),
  screen?: Size,
  own?: (input: string[], now: Date, screen?: Size) => BuiltArgs,
): BuiltArgs {
  const input = ['-hide_banner', '-nostats', '-loglevel', 'error', '-f', 'matroska', '-i', 'pipe:0'];
  if (own) return own(input, now, screen);
  return outputKind<typeof spec>(spec.kind).args(id, spec, input, now, screen);
}
