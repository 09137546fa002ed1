// The cue list as state (src/cues/list.ts) over an in-memory stand-in for the state store: ids from names, places
// in the list, finding, editing, moving, deleting and arming, and each refusal naming its field, with nothing changed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CueList, type CueFields } from '../../src/cues/list.js';
import type { CueAction, CuesSaved } from '../../src/cues/types.js';
import { ApiError } from '../../src/errors.js';
import { CUE_LIMITS } from '../../src/limits.js';
import type { StateStore } from '../../src/state/store.js';

// /cues routes exist too: a cue is refused them because they are /cues routes, not because they are unknown.
const ROUTES = new Set(['/scenes/recall', '/layers/opacity', '/blackout', '/cues', '/cues/go']);

function listWith(cues?: CuesSaved): { list: CueList; st: { cues?: CuesSaved } } {
  const st: { cues?: CuesSaved } = cues ? { cues } : {};
  const state = { peek: () => st, update: (fn: (s: typeof st) => void) => fn(st) } as unknown as StateStore;
  return { list: new CueList({ state, isPostRoute: (op) => ROUTES.has(op) }), st };
}
const fields = (name: string, o: Partial<CueFields> = {}): CueFields => ({
  name,
  trigger: { kind: 'manual' },
  actions: [{ op: '/scenes/recall', body: { name: 'a' } }],
  fireOnJump: false,
  ...o,
});
const ids = (l: CueList): string[] => l.list.map((c) => c.id);

/** Asserts `run` throws an ApiError with `code` whose message names `field`, and that the list did not change. */
function refused(l: CueList, run: () => unknown, code: string, field?: string): void {
  const before = JSON.stringify({ list: l.list, armed: l.armed });
  try {
    run();
  } catch (e) {
    assert.instance(e, ApiError);
    assert.is((e as ApiError).code, code);
    if (field) assert.ok((e as ApiError).message.includes(field), `"${(e as ApiError).message}" names ${field}`);
    assert.is(JSON.stringify({ list: l.list, armed: l.armed }), before, 'unchanged');
    return;
  }
  assert.unreachable(`not refused (${code})`);
}
const withAction = (a: CueAction): CueFields => fields('x', { actions: [a] });

test('an empty store is an empty, armed list', () => {
  const { list } = listWith();
  assert.equal(list.list, []);
  assert.is(list.armed, true);
});

test('add: ids from names, duplicates numbered from 2', () => {
  const { list, st } = listWith();
  assert.is(list.add(fields('Intro Scene!')).id, 'intro-scene');
  assert.is(list.add(fields('intro scene')).id, 'intro-scene-2');
  assert.is(list.add(fields('Intro_Scene')).id, 'intro-scene-3');
  assert.is(list.add(fields('!!!')).id, 'cue');
  assert.is(list.add(fields('???')).id, 'cue-2');
  assert.is(list.add(fields('x'.repeat(60))).id, 'x'.repeat(40));
  assert.equal(ids(list), ['intro-scene', 'intro-scene-2', 'intro-scene-3', 'cue', 'cue-2', 'x'.repeat(40)]);
  assert.equal(st.cues?.list[0], { id: 'intro-scene', ...fields('Intro Scene!') }, 'written to the state');
});

test('add at an index: the front, the middle, past the end', () => {
  const { list } = listWith();
  list.add(fields('b'));
  list.add(fields('a'), 0);
  list.add(fields('d'), 99);
  list.add(fields('c'), 2);
  assert.equal(ids(list), ['a', 'b', 'c', 'd']);
  assert.is(list.indexOf('c'), 2);
  assert.is(list.indexOf('zz'), -1);
});

test('find: by id, then by flexible name; 404 naming the ids there are', () => {
  const { list } = listWith();
  list.add(fields('Big Drop'));
  list.add(fields('Outro'));
  list.add(fields('big-drop')); // id big-drop-2
  assert.is(list.find('big-drop-2').name, 'big-drop');
  assert.is(list.find('  BIG_DROP ').id, 'big-drop', 'the first match by id key');
  assert.is(list.find('outro').id, 'outro');
  refused(list, () => list.find('nope'), 'ITEM_NOT_FOUND');
  try {
    list.find('nope');
  } catch (e) {
    assert.equal((e as ApiError).details?.available, ['big-drop', 'outro', 'big-drop-2']);
  }
});

test('edit changes the fields and keeps the id and place', () => {
  const { list } = listWith();
  list.add(fields('One'));
  list.add(fields('Two'));
  const next = list.edit('one', { name: 'Renamed', trigger: { kind: 'follow', delayMs: 500 } });
  assert.is(next.id, 'one');
  assert.equal(list.list[0], { ...fields('Renamed'), id: 'one', trigger: { kind: 'follow', delayMs: 500 } });
  const sneaky = list.edit('Renamed', { id: 'other' } as Partial<CueFields>);
  assert.is(sneaky.id, 'one');
  assert.equal(ids(list), ['one', 'two']);
  refused(list, () => list.edit('two', { actions: [{ op: '/cues/go' }] }), 'INVALID_REQUEST', 'actions[0].op');
  refused(list, () => list.edit('three', { name: 'x' }), 'ITEM_NOT_FOUND');
});

test('move, remove and arm', () => {
  const { list, st } = listWith();
  for (const n of ['a', 'b', 'c', 'd']) list.add(fields(n));
  list.move('a', 2);
  assert.equal(ids(list), ['b', 'c', 'a', 'd']);
  list.move('D', 0);
  assert.equal(ids(list), ['d', 'b', 'c', 'a']);
  list.move('b', 99);
  assert.equal(ids(list), ['d', 'c', 'a', 'b']);
  assert.is(list.remove('c').id, 'c');
  assert.equal(ids(list), ['d', 'a', 'b']);
  refused(list, () => list.remove('c'), 'ITEM_NOT_FOUND');
  refused(list, () => list.move('c', 0), 'ITEM_NOT_FOUND');
  list.arm(false);
  assert.is(list.armed, false);
  assert.is(st.cues?.armed, false);
  assert.equal(ids(list), ['d', 'a', 'b'], 'arming keeps the list');
  list.arm(true);
  assert.is(list.armed, true);
});

test('refusals name the field and change nothing', () => {
  const { list } = listWith();
  list.add(fields('keep'));
  const add = (f: CueFields) => () => list.add(f);
  refused(list, add(withAction({ op: '/no/such/route' })), 'INVALID_REQUEST', 'actions[0].op');
  refused(list, add(withAction({ op: '/cues/go' })), 'INVALID_REQUEST', 'actions[0].op');
  refused(list, add(withAction({ op: '/cues' })), 'INVALID_REQUEST', 'actions[0].op');
  const second = fields('x', { actions: [{ op: '/blackout' }, { op: '/layers/opacity', body: { at: 5, layer: 1 } }] });
  refused(list, add(second), 'INVALID_REQUEST', 'actions[1].body.at');
  const big = { text: 'x'.repeat(CUE_LIMITS.actionBodyMaxBytes) };
  refused(list, add(withAction({ op: '/scenes/recall', body: big })), 'INVALID_REQUEST', 'actions[0].body');
  for (const at of ['24:00:00:00', '00:60:00:00', '00:00:60:00', '00:00:00:30', 'noon'])
    refused(list, add(fields('x', { trigger: { kind: 'timecode', at } })), 'INVALID_REQUEST', 'trigger.at');
  assert.equal(ids(list), ['keep']);
});

test('what is allowed: a body just under the limit, a time of day, no actions', () => {
  const { list } = listWith();
  const fit = { text: 'x'.repeat(CUE_LIMITS.actionBodyMaxBytes - 20) };
  assert.ok(JSON.stringify(fit).length <= CUE_LIMITS.actionBodyMaxBytes);
  list.add(withAction({ op: '/scenes/recall', body: fit }));
  list.add(fields('late', { trigger: { kind: 'timecode', at: '23:59:59:29' } }));
  list.add(fields('empty', { actions: [] }));
  assert.equal(ids(list), ['x', 'late', 'empty']);
});

test(`CUE_LIMIT_REACHED at ${CUE_LIMITS.cuesMax} cues`, () => {
  const list: CuesSaved['list'] = [];
  for (let i = 0; i < CUE_LIMITS.cuesMax - 1; i++) list.push({ id: `c${i}`, ...fields(`c${i}`) });
  const l = listWith({ armed: true, list }).list;
  l.add(fields('last'));
  assert.is(l.list.length, CUE_LIMITS.cuesMax);
  refused(l, () => l.add(fields('one more')), 'CUE_LIMIT_REACHED');
  refused(l, () => l.add(withAction({ op: '/cues/go' })), 'CUE_LIMIT_REACHED');
  l.remove('c0');
  assert.is(l.add(fields('one more')).id, 'one-more');
});

test.run();
