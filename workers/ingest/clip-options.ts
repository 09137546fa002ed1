// What the ingest worker gives a clip under transport control: its file, ring, limits and the reports it sends back.
import type { ClipStart, ClipStatus, IngestState } from '../../src/shared/protocol/ingest.js';

export interface ClipSourceOptions {
  key: string;
  path: string;
  start: ClipStart;
  ring: SharedArrayBuffer;
  pcm?: SharedArrayBuffer;
  maxWidth: number;
  maxHeight: number;
  fps: number;
  ffmpeg: string;
  wrapper: string[];
  /** A reader that owes a frame this long counts as stalled and is replaced. */
  stallMs: number;
  adopted?: boolean;
  onState(state: IngestState, message?: string, pid?: number): void;
  onStatus(status: ClipStatus): void;
  onLog(level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>): void;
}
