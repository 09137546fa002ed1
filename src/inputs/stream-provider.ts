// Live inputs from configured stream URLs (tcp, udp, srt, rtsp, http, …): listed whenever configured, since
// whether a sender is there is only known once ffmpeg connects (the ingest state says so).
import type { StreamInputConfig } from '../config/schema.js';
import type { LiveInput, LiveProvider } from './providers.js';

export function createStreamProvider(streams: readonly StreamInputConfig[]): LiveProvider {
  return {
    type: 'stream',
    label: 'Streams',
    async enumerate(): Promise<LiveInput[]> {
      return streams.map((s) => ({
        id: s.id,
        name: s.name,
        provider: 'stream',
        input: { kind: 'url', url: s.url },
        available: true,
      }));
    },
  };
}
