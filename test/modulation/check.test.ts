// The modulator check (src/shared/modulation.ts) on polarity and amountOf, without a server: the three polarities,
// `unipolar` read as `up`, amountOf's two values, and refusals that name the field.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkModulator, cleanModulators } from '../../src/shared/modulation.js';

const lfo = { kind: 'lfo', shape: 'sine', rate: 1, amount: 0.5 };

function ok(raw: unknown): Record<string, unknown> {
  const c = checkModulator(raw);
  if (!c.ok) throw new Error(`refused: ${JSON.stringify(c.problem)}`);
  return c.modulator as unknown as Record<string, unknown>;
}

function refused(raw: unknown): { field: string; rule: string } {
  const c = checkModulator(raw);
  if (c.ok) throw new Error(`accepted: ${JSON.stringify(raw)}`);
  return c.problem;
}

test('bipolar, up and down are kept as sent; absent stays absent', () => {
  for (const polarity of ['bipolar', 'up', 'down']) assert.is(ok({ ...lfo, polarity }).polarity, polarity);
  assert.not.ok('polarity' in ok(lfo));
});

test('unipolar is accepted and read as up', () => {
  assert.equal(ok({ ...lfo, polarity: 'unipolar' }), { ...lfo, polarity: 'up' });
  const audio = ok({ kind: 'audio', source: 'bass', amount: 1, polarity: 'unipolar', releaseMs: 300 });
  assert.is(audio.polarity, 'up');
  // A saved state read leniently gets the same reading.
  assert.equal(cleanModulators({ brightness: { ...lfo, polarity: 'unipolar' } }), { brightness: { ...lfo, polarity: 'up' } });
});

test('amountOf takes range or headroom on every kind', () => {
  assert.is(ok({ ...lfo, amountOf: 'headroom' }).amountOf, 'headroom');
  assert.is(ok({ ...lfo, amountOf: 'range' }).amountOf, 'range');
  assert.not.ok('amountOf' in ok(lfo), 'absent: the range, as before');
  assert.is(ok({ kind: 'audio', source: 'level', amount: -1, amountOf: 'headroom', polarity: 'down' }).amountOf, 'headroom');
  assert.is(ok({ kind: 'beat', every: 2, amount: 1, amountOf: 'headroom', decayMs: 400 }).amountOf, 'headroom');
  assert.is(ok({ kind: 'steps', values: [0, 1], rate: '1/4', amount: 1, amountOf: 'headroom' }).amountOf, 'headroom');
});

test('a wrong polarity or amountOf is refused naming the field', () => {
  const p = refused({ ...lfo, polarity: 'sideways' });
  assert.is(p.field, 'modulator.polarity');
  assert.ok(p.rule.includes('up') && p.rule.includes('down'), p.rule);
  assert.is(refused({ ...lfo, polarity: 1 }).field, 'modulator.polarity');
  const a = refused({ ...lfo, amountOf: 'room' });
  assert.is(a.field, 'modulator.amountOf');
  assert.ok(a.rule.includes('headroom'), a.rule);
  assert.is(refused({ ...lfo, amountOf: null }).field, 'modulator.amountOf');
});

test('amount keeps its -1..1 range whatever it is a share of', () => {
  assert.is(refused({ ...lfo, amount: 1.5, amountOf: 'headroom' }).field, 'modulator.amount');
  assert.is(refused({ ...lfo, amount: -1.01 }).field, 'modulator.amount');
  assert.is(ok({ ...lfo, amount: -1, amountOf: 'headroom' }).amount, -1);
});

test.run();
