// The LTC reader's start and stop, from the config to the audio worker: the configured input as the worker's own
// ffmpeg opens it (a `stream` URL, a lavfi test source, a capture device) and the channel, and each word it decodes
// as a reading (the label's end is the next frame's start going forwards, its own start going backwards).
import type { AudioConfig } from '../config/audio.js';
import type { TimecodeConfig } from '../config/timecode.js';
import type { LtcInput } from '../shared/protocol/audio.js';
import type { AudioClient } from '../workers/audio-client.js';
import type { Incoming, LtcControl } from './service.js';
import { toFrames } from '../shared/smpte.js';

export function ltcControl(tc: TimecodeConfig, audio: AudioConfig, client: Pick<AudioClient, 'ltc'>): LtcControl | null {
  if (tc.source !== 'ltc' || tc.ltc === null) return null;
  const conf = (audio.inputs ?? []).find((i) => i.id === tc.ltc!.input);
  let input: LtcInput | null = null;
  if (conf?.kind === 'test') input = { id: conf.id, kind: 'test', source: conf.source };
  else if (conf?.kind === 'stream') input = { id: conf.id, kind: 'stream', url: conf.url };
  else if (conf?.kind === 'alsa' || conf?.kind === 'pulse') input = { id: conf.id, kind: conf.kind, device: conf.device };
  if (!input) return null;
  const from = `audio:${input.id}`;
  const channel = tc.ltc.channel;
  let rejected = 0;
  return {
    start(onFrames, onRejected, onState) {
      client.ltc({
        input: input!,
        channel,
        onMessage: (msg) => {
          if (msg.rejected > rejected) onRejected(msg.rejected - rejected);
          rejected = msg.rejected;
          if (msg.state) onState(msg.state, msg.message ?? null);
          const out: Incoming[] = msg.frames.map((f) => ({
            frames: toFrames(f, f.rate) + (f.reverse ? 0 : 1),
            rate: f.rate,
            atMs: f.atMs,
            reverse: f.reverse,
            from,
          }));
          if (out.length > 0) onFrames(out);
        },
      });
    },
    stop: () => client.ltc(null),
  };
}
