// The ffmpeg arguments of an audio `stream` input the audio worker opens itself (no live input shares its URL):
// the URL's first audio track, decoded to mono float at the analysis rate; and the redaction of its stderr lines.
import { redactText, urlSecrets } from '../../src/shared/url.js';

// A URL without a scheme (or file:) is a file on disk: read at its own pace, looped like a media file.
function isFileUrl(url: string): boolean {
  return url.startsWith('file:') || !/^[a-z][a-z0-9+.-]*:/i.test(url);
}

export function streamArgs(url: string, sampleRate: number): string[] {
  // A short analysis, as live video inputs use: a stream's audio starts sooner.
  const input = isFileUrl(url) ? ['-re', '-stream_loop', '-1', '-i', url] : ['-analyzeduration', '500000', '-i', url];
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    ...input,
    '-map',
    '0:a:0',
    '-vn',
    '-ac',
    '1',
    '-ar',
    String(sampleRate),
    '-f',
    'f32le',
    'pipe:1',
  ];
}

/** An ffmpeg line about the URL, with its credentials and secret options replaced. */
export function redactStreamLine(url: string, line: string): string {
  return redactText(line, urlSecrets(url));
}
