// ffmpeg command lines of a shared encoder and of its per-target remuxers: the encoder turns the program into
// H.264 in MPEG-TS on its stdout once per distinct setting; each stream output copies that into its own URL and
// each sharing recording into its own file.
import { join } from 'node:path';
import { checkStreamUrl, MUXER } from '../../src/shared/url.js';
import { h264 } from '../../src/shared/output-kinds/types.js';
import { RECORD_MUX, recordingName, type RecordSpec } from '../../src/shared/output-kinds/record.js';
import type { StreamSpec } from '../../src/shared/output-kinds/stream.js';
import type { BuiltArgs } from '../../src/shared/output-kinds/types.js';

/** An output that can take its picture from a shared encode. */
export type SharedSpec = StreamSpec | RecordSpec;

/** Everything that decides the encoded bitstream (streams and recordings encode alike): same key, one encode. */
export function encodeKey(spec: SharedSpec): string {
  return `${spec.encoder}/${spec.width}x${spec.height}@${spec.fps}/${spec.bitrateKbps}k`;
}

/** The encoder: the same H.264 settings a stream has on its own, muxed to MPEG-TS on stdout without delay. */
export function encoderArgs(spec: SharedSpec, input: string[]): BuiltArgs {
  return { args: [...input, ...h264(spec), '-f', 'mpegts', '-muxdelay', '0', '-muxpreload', '0', '-flush_packets', '1', 'pipe:1'] };
}

/**
 * A target's remuxer: copies the encoded stream to the URL. ffmpeg skips copied packets until the first keyframe,
 * so a remuxer started mid-stream begins at the encoder's next keyframe (one a second).
 */
export function remuxArgs(id: string, spec: SharedSpec, now = new Date()): BuiltArgs {
  // The probe reads a little over one keyframe interval (the SPS comes with each keyframe); the default would hold
  // the target back for seconds before its first packet.
  const probe = ['-analyzeduration', '1100000'];
  const input = ['-hide_banner', '-nostats', '-loglevel', 'error', '-f', 'mpegts', ...probe, '-i', 'pipe:0', '-map', '0:v', '-c', 'copy'];
  if (spec.kind === 'record') {
    // The file's timestamps start where this remuxer joined the stream, so its length is the wall time it ran.
    const file = join(spec.dir, recordingName(id, now));
    return { args: [...input, ...RECORD_MUX, file], file };
  }
  const check = checkStreamUrl(spec.url);
  // The service validated the URL already; a spec that fails here is a bug, never something ffmpeg should see.
  if (!check.ok) throw new Error(`output ${id}: refused URL (${check.reason})`);
  return { args: [...input, '-f', MUXER[check.scheme], '-flush_packets', '1', spec.url] };
}
