// The chain rules of spec section 3 without GL: add/remove/toggle/enabled, matching, ceilings, failures.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Chain, type EffectInstance } from '../../workers/render/chain.js';
import type { IsfDescriptor } from '../../src/shared/isf-types.js';

function desc(type: string, name: string): IsfDescriptor {
  return {
    type,
    name,
    kind: 'effect',
    file: `builtin:${type}.fs`,
    description: '',
    categories: [],
    inputs: [],
    passes: [{ persistent: false, float: false }],
    fragment: '',
  };
}

const catalog = [
  desc('invert', 'Invert'),
  desc('hue_shift', 'Hue Shift'),
  desc('blur', 'Soft Focus'),
  desc('soft_focus', 'Other'),
  desc('broken', 'Broken'),
];

function make(): { chain: Chain<EffectInstance>; live: () => number } {
  let alive = 0;
  const chain = new Chain<EffectInstance>({
    catalog: () => catalog,
    instantiate: (d) => {
      if (d.type === 'broken') throw new Error("ERROR: 0:3: 'x' : undeclared identifier");
      alive++;
      return { destroy: () => void alive-- };
    },
  });
  return { chain, live: () => alive };
}

const add = (type: string, extra: Partial<{ idempotent: boolean; ceiling: number }> = {}) =>
  ({ op: 'add', type, idempotent: extra.idempotent ?? false, ceiling: extra.ceiling ?? 8, presetId: '', inputs: {} }) as const;

test('add appends enabled items; two copies of one type are legal', () => {
  const { chain } = make();
  const a = chain.apply(add('invert'));
  const b = chain.apply(add('invert'));
  assert.equal(a, { ok: true, item: { index: 1, name: 'Invert', type: 'invert', enabled: true, presetId: '' } });
  assert.equal(b, { ok: true, item: { index: 2, name: 'Invert', type: 'invert', enabled: true, presetId: '' } });
  assert.is(chain.length, 2);
});

test('name matching: display name first, then type; case, separators and whitespace are flexible', () => {
  const { chain } = make();
  const r = chain.apply(add('  soft-FOCUS '));
  assert.ok(r.ok && r.item.type === 'blur', 'display name "Soft Focus" beats the type soft_focus');
  const h = chain.apply(add('HUE shift'));
  assert.ok(h.ok && h.item.type === 'hue_shift');
  const t = chain.apply(add('hue_shift'));
  assert.ok(t.ok && t.item.type === 'hue_shift');
});

test('idempotent add returns the existing first copy and adds nothing', () => {
  const { chain } = make();
  chain.apply(add('hue_shift'));
  chain.apply(add('invert'));
  const r = chain.apply(add('Invert', { idempotent: true }));
  assert.equal(r, { ok: true, item: { index: 2, name: 'Invert', type: 'invert', enabled: true, presetId: '' } });
  assert.is(chain.length, 2);
});

test('unknown type: ITEM_NOT_FOUND with the installed types', () => {
  const { chain } = make();
  const r = chain.apply(add('nope'));
  assert.is(r.ok, false);
  if (!r.ok) {
    assert.is(r.reason, 'ITEM_NOT_FOUND');
    assert.equal(
      r.details?.available,
      catalog.map((d) => d.type),
    );
  }
});

test('ceiling: EFFECT_LIMIT_REACHED and nothing added; idempotent hit still answers', () => {
  const { chain } = make();
  chain.apply(add('invert', { ceiling: 2 }));
  chain.apply(add('invert', { ceiling: 2 }));
  const r = chain.apply(add('hue_shift', { ceiling: 2 }));
  assert.is(r.ok, false);
  if (!r.ok) assert.is(r.reason, 'EFFECT_LIMIT_REACHED');
  assert.is(chain.length, 2);
  assert.ok(chain.apply(add('invert', { ceiling: 2, idempotent: true })).ok);
});

test('a shader that fails: EFFECT_LOAD_FAILED with the compile line, chain unchanged', () => {
  const { chain } = make();
  const r = chain.apply(add('broken'));
  assert.is(r.ok, false);
  if (!r.ok) {
    assert.is(r.reason, 'EFFECT_LOAD_FAILED');
    assert.match(r.message, /undeclared identifier/);
  }
  assert.is(chain.length, 0);
});

test('remove by type removes the first copy; later positions move down; the item is returned as it was', () => {
  const { chain, live } = make();
  chain.apply(add('invert'));
  chain.apply(add('hue_shift'));
  chain.apply(add('invert'));
  chain.apply({ op: 'enabled', index: 1, enabled: false });
  const r = chain.apply({ op: 'remove', type: 'invert' });
  assert.equal(r, { ok: true, item: { index: 1, name: 'Invert', type: 'invert', enabled: false, presetId: '' } });
  assert.equal(
    chain.items().map((i) => [i.index, i.type]),
    [
      [1, 'hue_shift'],
      [2, 'invert'],
    ],
  );
  assert.is(live(), 2, 'the removed instance was destroyed');
});

test('remove by index and misses with details', () => {
  const { chain } = make();
  chain.apply(add('invert'));
  chain.apply(add('hue_shift'));
  assert.equal(chain.apply({ op: 'remove', index: 2 }), {
    ok: true,
    item: { index: 2, name: 'Hue Shift', type: 'hue_shift', enabled: true, presetId: '' },
  });
  const miss = chain.apply({ op: 'remove', index: 5 });
  assert.ok(!miss.ok && miss.reason === 'ITEM_NOT_FOUND' && miss.details?.min === 1 && miss.details?.max === 1);
  const typeMiss = chain.apply({ op: 'remove', type: 'blur' });
  assert.ok(!typeMiss.ok && typeMiss.reason === 'ITEM_NOT_FOUND');
  if (!typeMiss.ok) assert.equal(typeMiss.details?.available, ['invert']);
});

test('toggle flips; name wins over index; misses give available names or min/max', () => {
  const { chain } = make();
  chain.apply(add('invert'));
  chain.apply(add('hue_shift'));
  const t = chain.apply({ op: 'toggle', name: 'hue shift', index: 1 });
  assert.equal(t, { ok: true, item: { index: 2, name: 'Hue Shift', type: 'hue_shift', enabled: false, presetId: '' } });
  const back = chain.apply({ op: 'toggle', index: 2 });
  assert.ok(back.ok && back.item.enabled);
  const nameMiss = chain.apply({ op: 'toggle', name: 'blur' });
  assert.ok(!nameMiss.ok);
  if (!nameMiss.ok) assert.equal(nameMiss.details?.available, ['Invert', 'Hue Shift']);
  const indexMiss = chain.apply({ op: 'toggle', index: 0 });
  assert.ok(!indexMiss.ok);
  if (!indexMiss.ok) assert.equal([indexMiss.details?.min, indexMiss.details?.max], [1, 2]);
  assert.is(chain.length, 2, 'toggle adds and removes nothing');
});

test('enabled is idempotent and does not bump the version when nothing changes', () => {
  const { chain } = make();
  chain.apply(add('invert'));
  const v0 = chain.version;
  chain.apply({ op: 'enabled', index: 1, enabled: false });
  const v1 = chain.version;
  const again = chain.apply({ op: 'enabled', index: 1, enabled: false });
  assert.ok(again.ok && again.item.enabled === false);
  assert.is(chain.version, v1);
  assert.ok(v1 > v0);
});

test('restore rebuilds entries and reports the ones it cannot', () => {
  const { chain } = make();
  const problems = chain.restore(
    [
      { type: 'invert', enabled: false, presetId: '', inputs: {} },
      { type: 'gone', enabled: true, presetId: '', inputs: {} },
      { type: 'broken', enabled: true, presetId: '', inputs: {} },
      { type: 'hue_shift', enabled: true, presetId: 'p1', inputs: { shift: 0.2 } },
    ],
    8,
  );
  assert.is(problems.length, 2);
  assert.equal(chain.entries(), [
    { type: 'invert', enabled: false, presetId: '', inputs: {} },
    { type: 'hue_shift', enabled: true, presetId: 'p1', inputs: { shift: 0.2 } },
  ]);
  assert.is(chain.enabled().length, 1);
});

function withInputs(type: string, name: string): IsfDescriptor {
  return {
    ...desc(type, name),
    inputs: [
      { name: 'inputImage', type: 'image' },
      { name: 'level', type: 'float', min: 0, max: 1, default: 0.5 },
      { name: 'burst', type: 'event', default: false },
    ],
  };
}

function makeWithInputs(): Chain<EffectInstance> {
  const cat = [withInputs('threshold', 'Threshold'), withInputs('invert', 'Invert'), withInputs('blur', 'Blur')];
  return new Chain<EffectInstance>({ catalog: () => cat, instantiate: () => ({ destroy: () => undefined }) });
}

test('params merge clamped values, answer every input, and refuse all of a request with one bad value', () => {
  const chain = makeWithInputs();
  chain.apply(add('threshold'));
  const r = chain.apply({ op: 'params', index: 1, values: { level: 3 } });
  assert.ok(r.ok);
  assert.equal(r.ok && r.inputs?.find((i) => i.name === 'level')?.value, 1);
  const bad = chain.apply({ op: 'params', name: 'threshold', values: { level: 0.2, nope: 1 } });
  assert.is(bad.ok, false);
  assert.is(!bad.ok && bad.reason, 'INVALID_REQUEST');
  assert.equal(!bad.ok && bad.details, { input: 'nope', available: ['level', 'burst'] });
  assert.equal(chain.entries()[0]!.inputs, { level: 1 });
  const miss = chain.apply({ op: 'params', index: 0, values: {} });
  assert.equal(!miss.ok && miss.details, { requested: 0, min: 1, max: 1 });
});

test('an event is set for the frame after the command and cleared by endFrame; it never persists', () => {
  const chain = makeWithInputs();
  chain.apply(add('threshold'));
  chain.apply({ op: 'params', index: 1, values: { burst: true } });
  assert.is(chain.enabled()[0]!.inputs.burst, true);
  assert.equal(chain.entries()[0]!.inputs, {});
  chain.endFrame();
  assert.is(chain.enabled()[0]!.inputs.burst, undefined);
});

test('reset restores all or the named inputs', () => {
  const chain = makeWithInputs();
  chain.apply(add('threshold'));
  chain.apply({ op: 'params', index: 1, values: { level: 0.9 } });
  const r = chain.apply({ op: 'reset', index: 1, inputs: ['level'] });
  assert.equal(r.ok && r.inputs?.find((i) => i.name === 'level')?.value, 0.5);
  assert.is(chain.apply({ op: 'reset', index: 1, inputs: ['nope'] }).ok, false);
});

test('move reorders; indexes follow the new order; a target outside 1..count is a miss with min/max', () => {
  const chain = makeWithInputs();
  for (const t of ['threshold', 'invert', 'blur']) chain.apply(add(t));
  const r = chain.apply({ op: 'move', index: 1, to: 3 });
  assert.ok(r.ok);
  assert.equal(r.ok && r.items?.map((i) => `${i.index}:${i.type}`), ['1:invert', '2:blur', '3:threshold']);
  assert.equal(r.ok && r.item, { index: 3, name: 'Threshold', type: 'threshold', enabled: true, presetId: '' });
  const back = chain.apply({ op: 'move', name: 'threshold', to: 1 });
  assert.equal(back.ok && back.items?.map((i) => i.type), ['threshold', 'invert', 'blur']);
  for (const to of [0, 4, -1]) {
    const miss = chain.apply({ op: 'move', index: 1, to });
    assert.equal(!miss.ok && miss.details, { requested: to, min: 1, max: 3 });
  }
  assert.equal(
    chain.enabled().map((s) => s.desc.type),
    ['threshold', 'invert', 'blur'],
  );
});

test.run();
