// The ffmpeg arguments of every input the audio worker opens itself: the input (a `stream` URL read as the ingest
// readers read it, its first audio track), decoded to mono float at the analysis rate on stdout; and the redaction
// of a stream's stderr lines.
import { redactText, urlSecrets } from '../../src/shared/url.js';
import { urlInputArgs } from '../../src/shared/url-input.js';

/** `input`: the input options and `-i`; `map`: which of its tracks (absent: ffmpeg's choice). */
export function pcmArgs(input: string[], sampleRate: number, map: string[] = []): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    ...input,
    ...map,
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

/** A `stream` input (no live input shares its URL); `protocols` limits what ffmpeg may open for it. */
export function streamArgs(url: string, sampleRate: number, protocols?: string): string[] {
  const whitelist = protocols ? ['-protocol_whitelist', protocols] : [];
  return pcmArgs([...whitelist, ...urlInputArgs(url)], sampleRate, ['-map', '0:a:0']);
}

/** An ffmpeg line about the URL, with its credentials and secret options replaced. */
export function redactStreamLine(url: string, line: string): string {
  return redactText(line, urlSecrets(url));
}

/**
 * `args` (an input decoded to mono) with one channel (1-based) taken instead of the mix of all; a capture device is
 * opened with enough channels to hold it (ALSA opens two, the Pulse input asks for one).
 */
export function oneChannel(args: string[], channel: number): string[] {
  const at = args.indexOf('-ac');
  if (at < 0 || !Number.isInteger(channel) || channel < 1) return args;
  let out = [...args.slice(0, at), '-af', `pan=mono|c0=c${channel - 1}`, ...args.slice(at + 2)];
  const wide = String(Math.max(2, channel));
  const asked = out.indexOf('-channels');
  if (asked >= 0) out[asked + 1] = wide;
  else if (out[out.indexOf('-f') + 1] === 'alsa') {
    const input = out.indexOf('-i');
    out = [...out.slice(0, input), '-channels', wide, ...out.slice(input)];
  }
  return out;
}
