// What GET /outputs and GET /status show of the outputs: one output as its routes answer it, and the totals.
import type { OutputState } from '../shared/protocol/output.js';
import type { OutputMap } from '../shared/output-map.js';
import type { OutputKind } from '../shared/output-kinds/index.js';
import type { EncoderChoice, H264Encoder } from '../shared/output-kinds/encoders.js';

export interface OutputView {
  id: string;
  name: string;
  kind: OutputKind;
  enabled: boolean;
  state: OutputState;
  target: string | null;
  width: number;
  height: number;
  fps: number;
  framesSent: number;
  framesDropped: number;
  framesRepeated: number;
  restarts: number;
  startedAt: string | null;
  lastError: string | null;
  /** stream and record: the `encoder` asked for (default `auto`); null for other kinds. */
  encoder: EncoderChoice | null;
  /** The ffmpeg encoder the latest start got; null before one is known, and for other kinds. */
  encoderInUse: H264Encoder | null;
  /** Output mapping: the slice, warp, soft edges and test card this output shows; null: the program as it is. */
  map: OutputMap | null;
}

export interface OutputsSummary {
  count: number;
  enabled: number;
  running: number;
  framesSent: number;
  framesDropped: number;
  framesRepeated: number;
  /** Shared encoders running now, each with the outputs (streams, recordings) it feeds. */
  encoders: SharedEncoderView[];
  /** What `encoder: "auto"` resolved to on this box; null until an output first needed it. */
  autoEncoder: H264Encoder | null;
}

/** A shared encoder and the outputs its one encode feeds. */
export interface SharedEncoderView {
  id: string;
  outputs: string[];
}
