// The second ffmpeg output of a reader that decodes its source's audio track: mono float PCM at the analysis rate
// on fd 3, copied into the source's PCM ring. A source without an audio track makes ffmpeg refuse the whole
// command, so that refusal is recognised and the reader runs again without the audio output.
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { IngestInput } from '../../src/shared/protocol/ingest.js';
import { PCM_SAMPLE_RATE, type PcmRingWriter } from '../../src/shared/pcm-ring.js';

/** The file descriptor of the PCM output in the child. */
export const PCM_FD = 3;

/** Whether the input asks for its audio track (a still image has none). */
export function wantsAudio(input: IngestInput): boolean {
  if (input.kind === 'url') return input.audio === true;
  if (input.kind === 'file') return input.audio === true && !input.still;
  return false;
}

/** Output options of the PCM output: the first audio track, mono, at the analysis rate, raw float. */
export function pcmOutputArgs(): string[] {
  return ['-map', '0:a:0?', '-vn', '-sn', '-dn', '-ac', '1', '-ar', String(PCM_SAMPLE_RATE), '-f', 'f32le', `pipe:${PCM_FD}`];
}

/** ffmpeg's words for an output left without streams (the source has no audio track to map). */
export function isNoAudioLine(line: string): boolean {
  return /Output file #1 does not contain any stream|Stream map '0:a:0\??' matches no streams/.test(line);
}

/** Sources seen without an audio track, so a reopen does not pay the refused start again (bounded). */
const silent = new Set<string>();
const SILENT_MAX = 1024;

export function knownSilent(input: IngestInput): boolean {
  return silent.has(JSON.stringify(input));
}

export function rememberSilent(input: IngestInput): void {
  if (silent.size >= SILENT_MAX) silent.clear();
  silent.add(JSON.stringify(input));
}

/** Copies the child's PCM output into the ring while the child runs; ffmpeg never blocks on it. */
export function tapPcm(child: ChildProcess, writer: PcmRingWriter): void {
  const pipe = child.stdio[PCM_FD] as Readable | null | undefined;
  pipe?.on('data', (chunk: Buffer) => writer.write(chunk));
  // A pipe error (the child died mid-write) is reported by the exit that follows.
  pipe?.on('error', () => {});
}
