// How ffmpeg reads a URL input, for the ingest readers and the audio worker alike: a file on disk at its own pace,
// looped as media is; a stream with a short analysis, so it shows (or sounds) sooner.

/** A URL without a scheme (or file:) is a file on disk. */
function isFileUrl(url: string): boolean {
  return url.startsWith('file:') || !/^[a-z][a-z0-9+.-]*:/i.test(url);
}

/** The input options and `-i` of `url`. */
export function urlInputArgs(url: string): string[] {
  // A file is read at its native rate, not as fast as it decodes.
  if (isFileUrl(url)) return ['-re', '-stream_loop', '-1', '-i', url];
  // The default 5 s analysis keeps a low-bitrate stream from showing for seconds (measured: 4.1 s → 1.1 s to
  // the first frame of a 10 fps mpegts over tcp); decoders learn the frame size from the first keyframe anyway.
  // (-fflags nobuffer is worse: it discards what was read during the analysis and waits for the next keyframe.)
  return ['-analyzeduration', '500000', '-i', url];
}
