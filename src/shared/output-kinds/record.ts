// The record kind: H.264 in Matroska, a new `<id>-<UTC timestamp>.mkv` in the recordings folder at every start.
import { join } from 'node:path';
import { OUTPUT_LIMITS } from '../../limits.js';
import { HAS_X264, h264, type OutputKindDescriptor, type SpecBase } from './types.js';

export interface RecordSpec extends SpecBase {
  kind: 'record';
  /** The folder files are written to. */
  dir: string;
}

/** `<id>-<UTC timestamp>.mkv`, e.g. `rec-1-20261124T091427123Z.mkv`: sortable, never from the network. */
export function recordingName(id: string, now = new Date()): string {
  return `${id}-${now.toISOString().replace(/[-:.]/g, '')}.mkv`;
}

export const recordKind: OutputKindDescriptor<'record', RecordSpec> = {
  kind: 'record',
  fromApi: true,
  fields: { bitrateKbps: { type: 'integer', ...OUTPUT_LIMITS.bitrateKbps } },
  // Recording names and folders never come from outside: a URL on a record would be a path in disguise.
  refused: { url: 'is not allowed for a recording (files go to the recordings folder)' },
  problem: () => null,
  built: (encoders) => HAS_X264.test(encoders),
  spec: (_o, { size, bitrateKbps, recordingsDir }) => ({ kind: 'record', ...size, bitrateKbps, dir: recordingsDir, secrets: [] }),
  target: (_o, file) => file,
  args(id, spec, input, now) {
    const file = join(spec.dir, recordingName(id, now));
    // Matroska with short clusters: a file cut by SIGKILL still plays up to its last cluster.
    return { args: [...input, ...h264(spec), '-f', 'matroska', '-cluster_time_limit', '1000', '-flush_packets', '1', '-y', file], file };
  },
};
