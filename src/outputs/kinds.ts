// Which output kinds this box can run, found once at start: stream and record both need ffmpeg with libx264
// (the muxers they use, Matroska, MPEG-TS and FLV, are part of every ffmpeg build). `display` and `v4l2` are not
// built yet, so they are never listed.
import { execFile } from 'node:child_process';
import type { OutputKind } from '../shared/messages.js';

const PROBE_TIMEOUT_MS = 10_000;

export function detectOutputKinds(ffmpeg: string): Promise<OutputKind[]> {
  return new Promise((resolve) => {
    execFile(ffmpeg, ['-hide_banner', '-encoders'], { timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (err, stdout) => {
      if (err) return resolve([]);
      resolve(/^\s*V\S*\s+libx264\s/m.test(stdout) ? ['stream', 'record'] : []);
    });
  });
}
