// The pixel-mapping service over stand-ins for the state store, the render client and the sender: ids from names,
// refusals naming the request's field with nothing changed, one samples block shared by the render stage and the
// sender (a new one only when the pixel count changes, none once the list is empty), nothing at all while
// disabled, and what state.json may hold.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_PIXELMAP } from '../../src/config/pixelmap.js';
import { ApiError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { FixtureFields } from '../../src/pixelmap/registry.js';
import { sanitizePixelmap } from '../../src/pixelmap/saved.js';
import { PixelmapService } from '../../src/pixelmap/service.js';
import type { ShowState, StateStore } from '../../src/state/store.js';
import type { PixelOutSettings } from '../../src/shared/protocol/pixelout.js';
import { pixel, strip } from './fixtures.js';

const log = { warn: () => {}, info: () => {}, error: () => {}, child: () => log } as unknown as Logger;
const fields = (f: ReturnType<typeof strip>): FixtureFields => {
  const { id: _id, ...rest } = f;
  return rest;
};

function setup(enabled = true, saved?: ShowState['pixelmap']) {
  const st: Partial<ShowState> = saved ? { pixelmap: saved } : {};
  const state = { peek: () => st, update: (fn: (s: Partial<ShowState>) => void) => fn(st) } as unknown as StateStore;
  const maps: Array<[Float32Array | null, SharedArrayBuffer | null]> = [];
  const sent: PixelOutSettings[] = [];
  const client = {
    status: { running: false, restarts: 0, packetsPerSecond: 0, framesSent: 0, lastError: null },
    configure: (s: PixelOutSettings) => void sent.push(s),
    stop: async () => {},
  };
  const pm = new PixelmapService({
    config: { ...DEFAULT_PIXELMAP, enabled, destinations: ['127.0.0.1'] },
    state,
    render: { setPixelMap: (t, b) => void maps.push([t, b]) },
    log,
    client: enabled ? client : null,
  });
  return { pm, st, maps, sent };
}

function refused(run: () => unknown, start: string): void {
  try {
    run();
  } catch (e) {
    assert.instance(e, ApiError);
    assert.is((e as ApiError).code, 'INVALID_REQUEST');
    assert.ok((e as ApiError).message.startsWith(start), (e as ApiError).message);
    return;
  }
  assert.unreachable(`not refused (${start})`);
}

test('ids come from names; edit and remove find by id or name', () => {
  const { pm } = setup();
  assert.is(pm.add(fields(strip('x', { x1: 0, y1: 0, x2: 1, y2: 0, pixels: 4 }, { name: 'Truss Left' }))).id, 'truss-left');
  assert.is(pm.add(fields(pixel('x', 0.5, 0.5, { name: 'Truss Left', address: 100 }))).id, 'truss-left-2');
  assert.is(pm.edit('truss left 2', { gamma: 2.2 }).gamma, 2.2);
  assert.is(pm.remove('truss-left').id, 'truss-left');
  assert.equal(
    pm.fixtures.map((f) => f.id),
    ['truss-left-2'],
  );
});

test("refusals name the request's field and change nothing", () => {
  const { pm, sent } = setup();
  pm.add(fields(strip('a', { x1: 0, y1: 0, x2: 1, y2: 0, pixels: 10 })));
  const before = JSON.stringify(pm.fixtures);
  const calls = sent.length;
  refused(() => pm.add(fields(pixel('b', 0, 0, { destination: '10.0.0.9' }))), 'destination "10.0.0.9" is not one of');
  refused(() => pm.add(fields(pixel('b', 0, 0, { address: 30 }))), 'address: fixture ("b") channels 30-32 overlap fixtures[0] ("a")');
  refused(() => pm.add(fields(pixel('b', 0, 0, { universe: 32768 }))), 'universe 32768 is outside');
  refused(() => pm.add(fields(pixel('b', 0, 0, { address: 511 }))), 'address 511 leaves no room');
  refused(() => pm.edit('a', { geometry: { kind: 'strip', x1: 0, y1: 0, x2: 1, y2: 0, pixels: 1024 }, universe: 32766 }), 'universe');
  assert.throws(
    () => pm.edit('nope', {}),
    (e: ApiError) => e.code === 'ITEM_NOT_FOUND',
  );
  assert.is(JSON.stringify(pm.fixtures), before);
  assert.is(sent.length, calls, 'nothing sent for a refusal');
});

test('one block for the render stage and the sender, new only when the pixel count changes; none when empty', () => {
  const { pm, maps, sent } = setup();
  pm.add(fields(strip('a', { x1: 0, y1: 0, x2: 1, y2: 0, pixels: 4 })));
  const [table, block] = maps.at(-1)!;
  assert.is(table!.length, 16);
  assert.is(sent.at(-1)!.samples, block);
  pm.edit('a', { colorOrder: 'GRB' });
  assert.is(maps.at(-1)![1], block, 'same size, same block');
  assert.is(sent.at(-1)!.fixtures[0]!.colorOrder, 'GRB');
  pm.setTest('each');
  assert.is(sent.at(-1)!.test, 'each');
  pm.add(fields(pixel('b', 0.5, 0.5, { address: 100 })));
  assert.is.not(maps.at(-1)![1], block, 'a new block for 5 pixels');
  assert.is(sent.at(-1)!.samples, maps.at(-1)![1]);
  pm.remove('a');
  pm.remove('b');
  assert.equal(maps.at(-1), [null, null]);
  assert.equal(sent.at(-1)!.fixtures, []);
  assert.equal(pm.status().fixtures, 0);
});

test('a saved fixture whose destination the config has dropped does not block other changes', () => {
  const stale = pixel('stale', 0.1, 0.1, { destination: '10.0.0.9' });
  const { pm } = setup(true, { fixtures: [stale], test: 'off' });
  pm.add(fields(pixel('b', 0.5, 0.5, { address: 100 })));
  pm.edit('b', { address: 200 });
  assert.equal(
    pm.fixtures.map((f) => f.id),
    ['stale', 'b'],
  );
  refused(() => pm.edit('stale', { address: 50 }), 'destination "10.0.0.9" is not one of');
  refused(() => pm.add(fields(pixel('c', 0, 0, { destination: '10.0.0.9' }))), 'destination "10.0.0.9" is not one of');
});

test('disabled: the patch is edited and saved, nothing samples or sends', () => {
  const { pm, st, maps } = setup(false);
  pm.add(fields(pixel('a', 0.5, 0.5)));
  assert.is(st.pixelmap!.fixtures.length, 1);
  assert.ok(
    maps.every((m) => m[0] === null && m[1] === null),
    'the render worker is never handed a table',
  );
  assert.is(pm.status().enabled, false);
});

test('state.json keeps the fixtures a request could make, at most the limit', () => {
  const good = pixel('ok', 0.5, 0.5);
  const bad = { ...pixel('bad', 2, 0.5) };
  assert.equal(sanitizePixelmap({ fixtures: [good, bad, { id: 'x' }], test: 'sparkle' }), { fixtures: [good], test: 'off' });
  assert.is(sanitizePixelmap('nope'), undefined);
  const many = Array.from({ length: 600 }, (_, i) => pixel(`p${i}`, 0, 0));
  assert.is(sanitizePixelmap({ fixtures: many, test: 'white' })!.fixtures.length, 512);
  const { pm, sent } = setup(true, { fixtures: [good], test: 'white' });
  pm.start();
  assert.is(sent.at(-1)!.test, 'white');
});

test.run();
