// The stream kind: H.264 to a network URL (SRT, UDP, RTP, TCP, RTMP(S), RTSP), the muxer chosen by the scheme.
import { OUTPUT_LIMITS } from '../../limits.js';
import { MUXER, checkStreamUrl, redactUrl, urlSecrets } from '../url.js';
import { ENCODER_FIELD, HAS_X264, h264, type EncodedSpec, type OutputKindDescriptor } from './types.js';

export interface StreamSpec extends EncodedSpec {
  kind: 'stream';
  /** The validated URL. */
  url: string;
}

export const streamKind: OutputKindDescriptor<'stream', StreamSpec> = {
  kind: 'stream',
  fromApi: true,
  fields: {
    url: { type: 'string', maxLength: OUTPUT_LIMITS.urlMaxLength, what: 'a URL' },
    bitrateKbps: { type: 'integer', ...OUTPUT_LIMITS.bitrateKbps },
    encoder: ENCODER_FIELD,
  },
  problem(o) {
    if (o.url === undefined) return { field: 'url', reason: 'is required for a stream' };
    if (o.url.length > OUTPUT_LIMITS.urlMaxLength)
      return { field: 'url', reason: `must be at most ${OUTPUT_LIMITS.urlMaxLength} characters` };
    const check = checkStreamUrl(o.url);
    return check.ok ? null : { field: 'url', reason: check.reason };
  },
  built: (encoders) => HAS_X264.test(encoders),
  spec: (o, { size, bitrateKbps, encoder }) => ({
    kind: 'stream',
    ...size,
    bitrateKbps,
    encoder,
    url: o.url!,
    secrets: urlSecrets(o.url!),
  }),
  target: (o) => redactUrl(o.url!),
  args(id, spec, input) {
    const check = checkStreamUrl(spec.url);
    // The service validated the URL already; a spec that fails here is a bug, never something ffmpeg should see.
    if (!check.ok) throw new Error(`output ${id}: refused URL (${check.reason})`);
    return { args: [...input, ...h264(spec), '-f', MUXER[check.scheme], '-flush_packets', '1', spec.url] };
  },
};
