// The record kind: H.264 in Matroska, a new `<id>-<UTC timestamp>.mkv` in the recordings folder at every start.
import { join } from 'node:path';
import { OUTPUT_LIMITS } from '../../limits.js';
import { ENCODER_FIELD, HAS_X264, h264, type EncodedSpec, type OutputKindDescriptor } from './types.js';

export interface RecordSpec extends EncodedSpec {
  kind: 'record';
  /** The folder files are written to. */
  dir: string;
  /** Copies the encode of streams with the same settings (one encoder per setting) instead of its own. */
  share: boolean;
}

/** `<id>-<UTC timestamp>.mkv`, e.g. `rec-1-20261124T091427123Z.mkv`: sortable, never from the network. */
export function recordingName(id: string, now = new Date()): string {
  return `${id}-${now.toISOString().replace(/[-:.]/g, '')}.mkv`;
}

/** The muxer of a recording: Matroska with short clusters, so a file cut by SIGKILL still plays up to its last one. */
export const RECORD_MUX = ['-f', 'matroska', '-cluster_time_limit', '1000', '-flush_packets', '1', '-y'];

export const recordKind: OutputKindDescriptor<'record', RecordSpec> = {
  kind: 'record',
  fromApi: true,
  fields: { bitrateKbps: { type: 'integer', ...OUTPUT_LIMITS.bitrateKbps }, encoder: ENCODER_FIELD },
  // Recording names and folders never come from outside: a URL on a record would be a path in disguise.
  refused: { url: 'is not allowed for a recording (files go to the recordings folder)' },
  problem: () => null,
  built: (encoders) => HAS_X264.test(encoders),
  spec: (_o, { size, bitrateKbps, encoder, recordingsDir, shareRecordings }) => ({
    kind: 'record',
    ...size,
    bitrateKbps,
    encoder,
    dir: recordingsDir,
    share: shareRecordings,
    secrets: [],
  }),
  target: (_o, file) => file,
  args(id, spec, input, now) {
    const file = join(spec.dir, recordingName(id, now));
    return { args: [...input, ...h264(spec), ...RECORD_MUX, file], file };
  },
};
