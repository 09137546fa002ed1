// What the ingest worker gives every reader of a key (its ring, limits and the reports it sends back), and what a
// clip under transport control takes beyond that: its file, its start and its stall limit.
import type { ClipStart, ClipStatus, IngestState } from '../../src/shared/protocol/ingest.js';
import type { LogFn } from '../../src/shared/protocol/common.js';

export interface ReaderOptions {
  key: string;
  ring: SharedArrayBuffer;
  /** The PCM ring its audio track is decoded into, when the input asks for it. */
  pcm?: SharedArrayBuffer;
  maxWidth: number;
  maxHeight: number;
  fps: number;
  ffmpeg: string;
  /** Command prefix that makes the child die with this thread (e.g. `setpriv --pdeathsig KILL --`), or []. */
  wrapper: string[];
  /** The ring was written by a worker that died: its frames are of a run that is over. */
  adopted?: boolean;
  onState(state: IngestState, message?: string, pid?: number): void;
  onLog: LogFn;
}

export interface ClipSourceOptions extends ReaderOptions {
  path: string;
  start: ClipStart;
  /** A reader that owes a frame this long counts as stalled and is replaced. */
  stallMs: number;
  onStatus(status: ClipStatus): void;
}
