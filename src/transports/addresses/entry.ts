// What one row of the OSC address table is, and what its mapper may read of the show: a leaf the address table and
// its per-area parts (tempo, modulation, transport, layers) all import, so none of them imports the table itself.
import type { InputInfo } from '../inputs.js';
import type { Mapped } from '../request.js';
import type { OscArg } from './args.js';

/** What a mapper may read of the running show, synchronously, so each message is one request. */
export interface OscLookup {
  /** The chain with its inputs (an effect input's type and range decide what a fader's float means). */
  chain(): ReadonlyArray<{ index: number; inputs: ReadonlyArray<InputInfo> }>;
  /** Palette ids in GET /palettes order (an integer selects by position). */
  paletteIds(): readonly string[];
}

export interface OscEntry {
  /** The address; `{index}` and `{input}` stand for path parts. */
  address: string;
  /** For addresses with parts: matches what follows `/vjd/`, capturing the parts. */
  pattern?: RegExp;
  types: string;
  does: string;
  /** How OSCQuery describes a fixed address: its one type tag, access (1 feedback, 2 control, 3 both) and range. */
  query?: { type: string; access: 1 | 2 | 3; range?: [number, number] };
  /** Absent for feedback-only addresses. */
  map?: (args: OscArg[], parts: string[], lookup: OscLookup) => Mapped;
}
