// ffmpeg command lines of a shared stream encoder and of its per-target remuxers: the encoder turns the program
// into H.264 in MPEG-TS on its stdout once per distinct setting; each stream output copies that into its own URL.
import { checkStreamUrl, MUXER } from '../../src/shared/url.js';
import { h264 } from '../../src/shared/output-kinds/types.js';
import type { StreamSpec } from '../../src/shared/output-kinds/stream.js';
import type { BuiltArgs } from '../../src/shared/output-kinds/types.js';

/** Everything that decides the encoded bitstream: outputs with the same key can share one encode. */
export function encodeKey(spec: StreamSpec): string {
  return `h264/${spec.width}x${spec.height}@${spec.fps}/${spec.bitrateKbps}k`;
}

/** The encoder: the same H.264 settings a stream has on its own, muxed to MPEG-TS on stdout without delay. */
export function encoderArgs(spec: StreamSpec, input: string[]): BuiltArgs {
  return { args: [...input, ...h264(spec), '-f', 'mpegts', '-muxdelay', '0', '-muxpreload', '0', '-flush_packets', '1', 'pipe:1'] };
}

/**
 * A target's remuxer: copies the encoded stream to the URL. ffmpeg skips copied packets until the first keyframe,
 * so a remuxer started mid-stream begins at the encoder's next keyframe (one a second).
 */
export function remuxArgs(id: string, spec: StreamSpec): string[] {
  const check = checkStreamUrl(spec.url);
  // The service validated the URL already; a spec that fails here is a bug, never something ffmpeg should see.
  if (!check.ok) throw new Error(`output ${id}: refused URL (${check.reason})`);
  const input = ['-hide_banner', '-nostats', '-loglevel', 'error', '-f', 'mpegts', '-i', 'pipe:0'];
  return [...input, '-map', '0:v', '-c', 'copy', '-f', MUXER[check.scheme], '-flush_packets', '1', spec.url];
}
