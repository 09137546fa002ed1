// When the pipeline beyond the render is short: the one rule the render's automatic scale (worker side) and the
// previews (main thread) both follow.
import type { PipelinePressure } from './protocol/render.js';

/** Encoders dropping more than this share of the frames offered (%) are short of time. */
export const ENCODE_DROP_PCT = 2;
/** A main thread whose event loop runs this late (p99, ms) is short of time. */
export const MAIN_LAG_MS = 40;

/** What is short, encoders first; null when both keep up. */
export function pipelineShort(p: PipelinePressure): 'encode' | 'main' | null {
  return p.encodeDropPct > ENCODE_DROP_PCT ? 'encode' : p.mainLagMs > MAIN_LAG_MS ? 'main' : null;
}
