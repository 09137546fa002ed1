// The value rules of effect and generator parameters (src/shared/param-values.ts), without a server.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IsfInput } from '../../src/shared/isf-types.js';
import {
  applyValues,
  currentValue,
  describeInputs,
  firedEvents,
  inputStates,
  persistable,
  resetValues,
} from '../../src/shared/param-values.js';

const INPUTS: IsfInput[] = [
  { name: 'inputImage', type: 'image' },
  { name: 'amount', type: 'float', label: 'Amount', min: 0, max: 2, default: 1 },
  { name: 'on', type: 'bool', default: false },
  { name: 'mode', type: 'long', values: [0, 1, 5], labels: ['Soft', 'Hard', 'Wild'], default: 0 },
  { name: 'count', type: 'long', min: 1, max: 10, default: 3 },
  { name: 'tint', type: 'color', default: [1, 1, 1, 1] },
  { name: 'center', type: 'point2D', min: [0, 0], max: [1, 1], default: [0.5, 0.5] },
  { name: 'burst', type: 'event', default: false },
  { name: 'spectrum', type: 'audioFFT' },
];

const ok = (request: Record<string, unknown>, stored: Record<string, unknown> = {}) => {
  const r = applyValues(INPUTS, stored, request);
  if (!r.ok) assert.unreachable(`refused: ${r.problem.message}`);
  return (r as { values: Record<string, unknown> }).values;
};
const refused = (request: Record<string, unknown>) => {
  const r = applyValues(INPUTS, {}, request);
  assert.is(r.ok, false, JSON.stringify(request));
  return (r as { problem: { message: string; details: Record<string, unknown> } }).problem;
};

test('descriptions carry name, label (name when absent), type, default and the optional range and choices', () => {
  const d = describeInputs(INPUTS);
  assert.equal(d[0], { name: 'inputImage', label: 'inputImage', type: 'image' });
  assert.equal(d[1], { name: 'amount', label: 'Amount', type: 'float', default: 1, min: 0, max: 2 });
  assert.equal(d[3], { name: 'mode', label: 'mode', type: 'long', default: 0, values: [0, 1, 5], labels: ['Soft', 'Hard', 'Wild'] });
});

test('floats are clamped to MIN..MAX; deltas move from the current value and clamp too', () => {
  assert.is(ok({ amount: 5 }).amount, 2);
  assert.is(ok({ amount: -1 }).amount, 0);
  assert.is(ok({ amount: 0.25 }).amount, 0.25);
  assert.is(ok({ amount: { delta: 0.5 } }).amount, 1.5, 'from the default 1');
  assert.is(ok({ amount: { delta: 0.25 } }, { amount: 0.5 }).amount, 0.75);
  assert.is(ok({ amount: { delta: 10 } }, { amount: 0.5 }).amount, 2);
});

test('longs take one of their values or a label, and deltas step through the values', () => {
  assert.is(ok({ mode: 5 }).mode, 5);
  assert.is(ok({ mode: 'hard' }).mode, 1);
  assert.is(ok({ mode: { delta: 1 } }, { mode: 1 }).mode, 5);
  assert.is(ok({ mode: { delta: 5 } }).mode, 5, 'stops at the last value');
  assert.is(ok({ count: 40 }).count, 10);
  assert.is(refused({ mode: 2 }).details.input, 'mode');
  assert.is(refused({ count: 2.5 }).details.input, 'count');
});

test('colors: #RRGGBB, #RRGGBBAA and [r,g,b,a] in 0..1; point2D [x,y] clamped', () => {
  assert.equal(ok({ tint: '#FF0000' }).tint, [1, 0, 0, 1]);
  assert.equal(ok({ tint: '#00ff0080' }).tint, [0, 1, 0, 0.502]);
  assert.equal(ok({ tint: [0, 0, 1, 0.5] }).tint, [0, 0, 1, 0.5]);
  assert.equal(ok({ center: [2, -1] }).center, [1, 0]);
  for (const bad of ['red', '#FFF', [0, 0, 2, 1], [0, 0], ['1', 0, 0, 1], 7]) assert.is(refused({ tint: bad }).details.input, 'tint');
  for (const bad of [[1], [1, 2, 3], 'x', [null, 1]]) assert.is(refused({ center: bad }).details.input, 'center');
});

test('wrong types are refused with what the input expects; unknown names list the settable inputs', () => {
  const p = refused({ amount: 'loud' });
  assert.equal(Object.keys(p.details).sort(), ['expected', 'input']);
  assert.match(p.details.expected as string, /finite number/);
  assert.is(refused({ amount: null }).details.input, 'amount');
  assert.is(refused({ amount: { delta: 'x' } }).details.input, 'amount');
  assert.is(refused({ amount: { delta: 1, extra: 2 } }).details.input, 'amount');
  assert.is(refused({ on: 1 }).details.input, 'on');
  assert.is(refused({ burst: false }).details.input, 'burst');
  assert.is(refused({ inputImage: 1 }).details.input, 'inputImage');
  assert.is(refused({ spectrum: [0] }).details.input, 'spectrum');
  const u = refused({ nope: 1 });
  assert.equal(u.details, { input: 'nope', available: ['amount', 'on', 'mode', 'count', 'tint', 'center', 'burst'] });
});

test('all or nothing: one bad value and the stored values are untouched', () => {
  const stored = { amount: 0.5 };
  const r = applyValues(INPUTS, stored, { amount: 1.5, on: 'yes' });
  assert.is(r.ok, false);
  assert.equal(stored, { amount: 0.5 });
});

test('merge keeps inputs not named; reset restores defaults (all or named); unknown reset names refused', () => {
  const v = ok({ on: true }, { amount: 0.5 });
  assert.equal(v, { amount: 0.5, on: true });
  const all = resetValues(INPUTS, v);
  assert.equal(all.ok && all.values, {});
  const one = resetValues(INPUTS, v, ['on']);
  assert.equal(one.ok && one.values, { amount: 0.5 });
  assert.is(resetValues(INPUTS, v, ['nope']).ok, false);
});

test('events fire for one frame: listed as fired, left out of what persists', () => {
  const v = ok({ burst: true, amount: 0.3 });
  assert.equal(firedEvents(INPUTS, v), ['burst']);
  assert.equal(persistable(INPUTS, v), { amount: 0.3 });
});

test('current values: stored when valid, else the default; states pair descriptions with values', () => {
  assert.is(currentValue(INPUTS[1]!, 'junk'), 1);
  assert.is(currentValue(INPUTS[1]!, 9), 2);
  assert.equal(currentValue(INPUTS[5]!, [1, 0, 0]), [1, 0, 0, 1]);
  const s = inputStates(INPUTS, { amount: 0.7 });
  assert.is(s[1]!.value, 0.7);
  assert.ok(!('value' in s[0]!), 'image inputs have no value');
  assert.is(s[2]!.value, false);
});

test.run();
