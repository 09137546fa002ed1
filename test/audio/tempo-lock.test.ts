// The tracker and the tempo clock together, offline over drum tracks synthesised here (test/helpers/drums.ts): a
// 90 BPM hip-hop, a 128 BPM house and a 174 BPM drum-and-bass groove each lock within 1 BPM and their confidence
// rises; switched one after another on one input and across inputs, each new tempo is taken, stays steady, and the
// confidence says so only once it is right.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type ChangeMode, play, type Segment, type TrackerModules } from '../helpers/tempo-run.js';
import { Analyser } from '../../workers/audio/analysis.js';
import { BeatTracker } from '../../workers/audio/beat-tracker.js';
import { Clock } from '../../workers/audio/clock.js';
import { createTempoBlock } from '../../src/shared/tempo-block.js';

const MODULES: TrackerModules = { Analyser, BeatTracker, Clock, createTempoBlock };
const SECONDS = 16;

const describe = (segs: Segment[]): string =>
  segs
    .map(
      (s) =>
        `${s.bpm}: lock ${s.lockS?.toFixed(2) ?? 'never'} s, confident ${s.confidentS?.toFixed(2) ?? 'never'} s, ` +
        `off ${s.offConfidence.toFixed(2)}/${s.lateOffConfidence.toFixed(2)}, locked ${s.lockedConfidence.toFixed(2)}, errors ${Math.min(...s.lockedErrors).toFixed(2)}..${Math.max(...s.lockedErrors).toFixed(2)}`,
    )
    .join('; ');

function assertLocked(segs: Segment[]): void {
  for (const s of segs) {
    assert.ok(s.lockS !== null, `${s.bpm} BPM never locked: ${describe(segs)}`);
    assert.ok(s.confidentS !== null && s.lockedConfidence >= 0.6, `${s.bpm} BPM: confidence never rose: ${describe(segs)}`);
    // Steady once locked: the clock never strays from the tempo (no wobble, no octave flip).
    for (const e of s.lockedErrors) assert.ok(Math.abs(e) < 0.5, `${s.bpm} BPM wobbles: ${describe(segs)}`);
    // Honest meanwhile: with two seconds of the new music heard, a wrong tempo is never shown as sure.
    assert.ok(s.lateOffConfidence < 0.6, `${s.bpm} BPM: sure while wrong: ${describe(segs)}`);
  }
}

for (const bpm of [90, 128, 174]) {
  test(`a ${bpm} BPM groove from nothing: the clock reaches it and its confidence rises`, () => {
    assertLocked(play(MODULES, [bpm], SECONDS, 'select'));
  });
}

for (const mode of ['cut', 'select'] as ChangeMode[]) {
  test(`90 → 128 → 174 → 90 ${mode === 'cut' ? 'on one input' : 'across inputs'}: every new tempo is taken`, () => {
    assertLocked(play(MODULES, [90, 128, 174, 90], SECONDS, mode));
  });
}

test.run();
