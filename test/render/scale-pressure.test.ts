// The automatic render scale follows the pipeline beyond the render: encoders dropping frames or a late main thread
// step it down though frames draw in time, hold it down while they last, and /status names what holds it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RenderScale, SCALE_STEP } from '../../workers/render/render-scale.js';
import { PressureMeter } from '../../src/app/pipeline-pressure.js';
import type { PipelinePressure } from '../../src/shared/protocol/render.js';

const PERIOD = 1000 / 30;
const QUIET: PipelinePressure = { encodeDropPct: 0, mainLagMs: 0 };
const DROPPING: PipelinePressure = { encodeDropPct: 25, mainLagMs: 3 };
const LATE: PipelinePressure = { encodeDropPct: 0, mainLagMs: 120 };
const auto = (): RenderScale => new RenderScale({ scale: 'auto', minScale: 0.5 }, PERIOD);

test('encoders dropping frames: one step down per two reports, to minScale at most; limit says encode', () => {
  const s = auto();
  for (let i = 0; i < 40; i++) s.record(5);
  assert.is(s.pressure(DROPPING), null, 'one report is not enough');
  assert.is(s.pressure(DROPPING), 1 - SCALE_STEP);
  assert.equal(s.limit(), { by: 'encode', frameMs: 0, readbackMs: 0, ...DROPPING });
  for (let i = 0; i < 40; i++) s.pressure(DROPPING);
  assert.is(s.scale, 0.5, 'never below minScale');
});

test('a late main thread steps it down too, and frames with headroom wait for quiet reports before climbing', () => {
  const s = auto();
  s.pressure(LATE);
  s.pressure(LATE);
  assert.is(s.scale, 1 - SCALE_STEP);
  assert.is(s.limit().by, 'main');
  // Cheap frames, but the pipeline was short a moment ago: no step up yet.
  for (let i = 0; i < 100; i++) assert.is(s.record(2), null);
  for (let i = 0; i < 5; i++) s.pressure(QUIET);
  let up: number | null = null;
  for (let i = 0; i < 40 && up === null; i++) up = s.record(2);
  assert.is(up, 1, 'quiet reports let cheap frames take it back up');
  assert.is(s.limit().by, null);
});

test('slow frames: limit says render, or readback when reading back is most of the frame', () => {
  const s = auto();
  for (let i = 0; i < 8; i++) s.record(PERIOD * 1.5, 1);
  assert.ok(s.scale < 1);
  assert.is(s.limit().by, 'render');
  const r = auto();
  for (let i = 0; i < 8; i++) r.record(PERIOD * 1.5, PERIOD);
  assert.is(r.limit().by, 'readback');
});

test('a fixed scale ignores pressure', () => {
  const s = new RenderScale({ scale: 0.75, minScale: 0.5 }, PERIOD);
  for (let i = 0; i < 10; i++) assert.is(s.pressure(DROPPING), null);
  assert.is(s.scale, 0.75);
});

test('the meter: drops as a share of frames offered over each second, restarts counted as nothing, sent on', () => {
  let totals = { sent: 0, dropped: 0 };
  const sent: PipelinePressure[] = [];
  const m = new PressureMeter(
    () => totals,
    (p) => sent.push(p),
  );
  m.start();
  try {
    totals = { sent: 90, dropped: 10 };
    assert.is(m.tick().encodeDropPct, 10);
    totals = { sent: 5, dropped: 0 };
    assert.is(m.tick().encodeDropPct, 0, 'counters that started over are no drops');
    assert.is(sent.length, 2);
    assert.ok(sent.every((p) => p.mainLagMs >= 0));
  } finally {
    m.stop();
  }
});

test.run();
