// ffmpeg's fixed listings (`-encoders`, `-devices`), each read once per process. The output kinds, the encoder probe
// and audio device discovery read the same text, and `prefetchListings` starts both while the render worker starts,
// so a server's start does not wait for them one after the other.
import { execFile } from 'node:child_process';

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 4 * 1024 * 1024;

export interface Listing {
  stdout: string;
  stderr: string;
  /** ffmpeg did not run or exited with an error. */
  failed: boolean;
}

const cache = new Map<string, Promise<Listing>>();

export function ffmpegListing(ffmpeg: string, flag: '-encoders' | '-devices'): Promise<Listing> {
  const key = `${ffmpeg}\0${flag}`;
  let p = cache.get(key);
  if (!p) {
    p = new Promise((resolve) => {
      execFile(ffmpeg, ['-hide_banner', flag], { timeout: TIMEOUT_MS, maxBuffer: MAX_BYTES }, (err, stdout, stderr) =>
        resolve({ stdout: String(stdout ?? ''), stderr: String(stderr ?? ''), failed: err !== null }),
      );
    });
    cache.set(key, p);
  }
  return p;
}

export function prefetchListings(ffmpeg: string): void {
  void ffmpegListing(ffmpeg, '-encoders');
  void ffmpegListing(ffmpeg, '-devices');
}
