// Requests for the conformance check, as data: one entry per documented operation (by operationId), each a list of
// valid and invalid requests with the answers the server may give. A route added later needs one entry here (the
// test fails on an operation without one); HEAD, OPTIONS, no-key and body-format variants are derived by the runner.
import type { Ids } from './fixture.js';

export interface Case {
  name: string;
  /** Absolute path with query string. */
  path: string;
  /** JSON body (serialized, sent as application/json). */
  body?: unknown;
  /** Raw body with its Content-Type ('' sends none). */
  raw?: { text: string; type: string };
  headers?: Record<string, string>;
  /** Send If-None-Match with the ETag the server gives the same path right before. */
  conditional?: boolean;
  /**
   * Why this request is checked against the server only, where Prism 5.16 cannot judge it: it never answers a
   * request whose application/json body does not parse, reads an empty query value as an absent one, and reads a
   * body without Content-Type as JSON text.
   */
  directOnly?: string;
  /** The answer never ends (a live stream): the runner reads status and headers, then closes (with directOnly). */
  endless?: boolean;
  /** Whether the request is well-formed by the description (Prism must forward exactly these). */
  valid: boolean;
  /** Statuses the server may answer (documented load answers are accepted besides, see the runner). */
  expect: number[];
}

export interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  /** Whether the route takes a required JSON body (the runner adds format variants: 415, bad JSON, array, none). */
  jsonBody?: boolean;
  cases: (ids: Ids) => Case[];
}

const A = (p: string) => `/api/v1${p}`;
const ok = (name: string, path: string, extra: Partial<Case> = {}): Case => ({ name, path, valid: true, expect: [200], ...extra });
const bad = (name: string, path: string, status: number, extra: Partial<Case> = {}): Case => ({
  name,
  path,
  valid: false,
  expect: [status],
  ...extra,
});
const post = (path: string) => ({
  ok: (name: string, body: unknown, expect = [200]): Case => ({ name, path: A(path), body, valid: true, expect }),
  miss: (name: string, body: unknown): Case => ({ name, path: A(path), body, valid: true, expect: [404] }),
  bad: (name: string, body: unknown, status = 400): Case => ({ name, path: A(path), body, valid: false, expect: [status] }),
});
const long = (n: number) => 'x'.repeat(n);

/** Query variants every thumbnail route accepts: the server is lenient (clamps or takes defaults), so all are valid. */
const thumbQueries = [
  '',
  '?size=64',
  '?size=512&format=jpg',
  '?size=abc',
  '?size=99999',
  '?size=-5',
  '?size=1e3',
  '?size=',
  '?format=gif',
  '?format=JPG',
  '?size=40.0',
];

function thumbCases(path: string, live: boolean): Case[] {
  return [
    ...thumbQueries.map((q) => ok(`image ${q || '(defaults)'}`, `${path}${q}`)),
    // Live frames and the output change every frame, so their revalidation may find a new image.
    ok('revalidation with If-None-Match', path, { conditional: true, expect: live ? [200, 304] : [304] }),
    ok('If-None-Match that matches nothing', path, { headers: { 'if-none-match': '"other"' } }),
  ];
}

export const CORPUS: Record<string, Operation> = {
  getStatus: { method: 'GET', cases: () => [ok('status', A('/status')), ok('status, unknown query ignored', A('/status?x=1'))] },
  getCapabilities: { method: 'GET', cases: () => [ok('capabilities', A('/capabilities'))] },
  getDocs: {
    method: 'GET',
    cases: () => [ok('docs page', A('/docs')), ok('docs page revalidated', A('/docs'), { conditional: true, expect: [304] })],
  },
  getOpenApi: {
    method: 'GET',
    cases: () => [ok('openapi', A('/openapi.yaml')), ok('openapi revalidated', A('/openapi.yaml'), { conditional: true, expect: [304] })],
  },
  browse: {
    method: 'GET',
    cases: () => [
      ok('root', A('/browse')),
      ok('root by path', A('/browse?path=/')),
      ok('sources depth 2', A('/browse?path=/sources&depth=2')),
      ok('live depth 3', A('/browse?path=/live&depth=3')),
      ok('files', A('/browse?path=/files')),
      ok('trailing slash', A('/browse?path=/live/')),
      ok('upper case', A('/browse?path=/SOURCES&depth=1')),
      { ...ok('unknown folder', A('/browse?path=/nope')), expect: [404] },
      bad('empty path', A('/browse?path='), 400, { directOnly: 'Prism drops empty query values' }),
      bad('space in path', A('/browse?path=/a%20b'), 400),
      bad('dot in path', A('/browse?path=/a.b'), 400),
      bad('path over 512', A(`/browse?path=/${long(512)}`), 400),
      bad('depth 0', A('/browse?depth=0'), 400),
      bad('depth 4', A('/browse?depth=4'), 400),
      bad('depth 01', A('/browse?depth=01'), 400),
      bad('depth +2', A('/browse?depth=%2B2'), 400),
      bad('depth 2.0', A('/browse?depth=2.0'), 400),
      bad('depth word', A('/browse?depth=abc'), 400),
      bad('depth empty', A('/browse?depth='), 400, { directOnly: 'Prism drops empty query values' }),
      bad('bad path and depth', A('/browse?path=a%20b&depth=9'), 400),
    ],
  },
  listSources: { method: 'GET', cases: () => [ok('sources', A('/sources'))] },
  getCurrentSource: { method: 'GET', cases: () => [ok('current source', A('/sources/current'))] },
  selectSource: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/sources/select');
      return [
        p.ok('generator by id', { id: ids.generator }),
        p.ok('same again', { id: ids.generator }),
        p.ok('blank id, usable name', { id: '  ', name: ids.generator }),
        p.miss('unknown id', { id: 'nope' }),
        p.miss('unknown name', { name: 'no such source' }),
        p.bad('empty object', {}),
        p.bad('blank id only', { id: '   ' }),
        p.bad('empty id', { id: '' }),
        p.bad('id not a string', { id: 5 }),
        p.bad('id over 512', { id: long(513) }),
        p.bad('name over 512', { name: long(513) }),
        p.bad('only unknown fields', { other: 'x' }),
        p.ok('with a fade', { id: ids.mediaId, transition: 'fade', durationMs: 100 }),
        p.ok('back with a cut', { id: ids.generator, transition: 'cut' }),
        p.miss('unknown transition', { id: ids.generator, transition: 'no such transition' }),
        p.bad('durationMs over 10000', { id: ids.generator, transition: 'fade', durationMs: 10001 }),
        p.bad('durationMs not an integer', { id: ids.generator, durationMs: 0.5 }),
        p.bad('transition empty', { id: ids.generator, transition: '' }),
        p.ok('positionS on a generator', { id: ids.generator, positionS: 1 }, [409]),
        p.bad('positionS negative', { id: ids.generator, positionS: -1 }),
        p.bad('positionS a string', { id: ids.generator, positionS: 'start' }),
      ];
    },
  },
  // Right after selectSource: the program is a generator (409 NOT_A_GENERATOR when that select did not go through).
  getSourceParams: { method: 'GET', cases: () => [ok('program generator params', A('/sources/current/params'), { expect: [200, 409] })] },
  setSourceParams: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/sources/params');
      return [
        p.ok('empty values', { values: {} }, [200, 409]),
        p.ok('unknown input', { values: { noSuchInput: 1 } }, [400, 409]),
        p.bad('no values', {}),
        p.bad('values not an object', { values: 'red' }),
      ];
    },
  },
  getMix: { method: 'GET', cases: () => [ok('mixer', A('/mix'))] },
  listTransitions: { method: 'GET', cases: () => [ok('transitions', A('/transitions'))] },
  listCatalogErrors: { method: 'GET', cases: () => [ok('catalog errors', A('/catalog/errors'))] },
  getEffectThumbnail: {
    method: 'GET',
    cases: (ids) => [
      ...thumbCases(A(`/catalog/effects/${ids.effectType}/thumbnail`), false),
      { ...ok('unknown effect', A('/catalog/effects/nope/thumbnail')), expect: [404] },
      bad('id over 256', A(`/catalog/effects/${long(300)}/thumbnail`), 404),
    ],
  },
  warmSource: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/sources/warm');
      return [
        p.ok('media file', { id: ids.mediaId }),
        p.ok('generator', { id: ids.generator }),
        p.miss('unknown id', { id: 'nope' }),
        p.bad('empty object', {}),
        p.bad('empty id', { id: '' }),
        p.bad('id not a string', { id: 5 }),
        p.bad('id over 512', { id: long(513) }),
        p.bad('unknown field', { id: ids.generator, other: 1 }),
      ];
    },
  },
  cueSource: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/mix/cue');
      return [
        p.ok('generator by id', { id: ids.generator }),
        p.ok('media file by name-or-id', { id: ids.mediaId }),
        p.miss('unknown id', { id: 'nope' }),
        p.bad('empty object', {}),
        p.bad('blank name only', { name: '  ' }),
        p.bad('id not a string', { id: 5 }),
        p.bad('id over 512', { id: long(513) }),
      ];
    },
  },
  takeMix: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/mix/take');
      // After a take the old program waits on preview, so a take always has something cued here.
      return [
        p.ok('cut', { transition: 'cut' }, [200, 409]),
        p.ok('fade', { transition: 'fade', durationMs: 50 }, [200, 409]),
        p.ok("the mixer's transition", {}, [200, 409]),
        p.miss('unknown transition', { transition: 'nope' }),
        p.bad('durationMs negative', { durationMs: -1 }),
        p.bad('durationMs over 10000', { durationMs: 10001 }),
        p.bad('transition not a string', { transition: 3 }),
        p.bad('unknown field', { speed: 1 }),
        p.ok('restart the cued clip', { transition: 'cut', restart: true }, [200, 409]),
        p.bad('restart not a boolean', { restart: 'yes' }),
      ];
    },
  },
  setMixTransition: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/mix/transition');
      return [
        p.ok('fade over 500 ms', { transition: 'fade', durationMs: 500 }),
        p.ok('duration only', { durationMs: 0 }),
        p.ok('by name', { transition: 'Cut' }),
        p.ok('nothing to set', {}, [400]),
        p.miss('unknown transition', { transition: 'nope' }),
        p.bad('durationMs over 10000', { durationMs: 10001 }),
        p.bad('transition not a string', { transition: 3 }),
        p.bad('transition over 64', { transition: long(65) }),
        p.bad('unknown field', { restart: true }),
      ];
    },
  },
  setMixPosition: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/mix/position');
      return [
        p.ok('half way', { value: 0.5, transition: 'fade' }, [200, 409]),
        p.ok('back', { value: 0 }, [200, 409]),
        p.miss('unknown transition', { value: 0.5, transition: 'nope' }),
        p.bad('no value', {}),
        p.bad('value over 1', { value: 1.5 }),
        p.bad('value a string', { value: 'half' }),
      ];
    },
  },
  selectLiveInput: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/inputs/live/select');
      return [
        p.ok('device id', { id: ids.live }),
        p.ok('browse node id', { id: `liveInput:${ids.live}` }),
        p.miss('unknown', { id: 'nope' }),
        p.bad('no id', {}),
        p.bad('null id', { id: null }),
      ];
    },
  },
  selectFileInput: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/inputs/file/select');
      return [
        p.ok('media id', { id: ids.mediaId }),
        // The fixture's media file is a still: it has no transport.
        p.ok('media id at a position', { id: ids.mediaId, positionS: 0 }, [409]),
        p.bad('positionS negative', { id: ids.mediaId, positionS: -1 }),
        p.miss('unknown name', { name: 'nope' }),
        p.bad('no field', {}),
        p.bad('array id', { id: [ids.mediaId] }),
      ];
    },
  },
  listAvailableEffects: { method: 'GET', cases: () => [ok('catalog', A('/effects/available'))] },
  addEffect: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/effects/add');
      return [
        p.ok('add', { type: ids.effectType, idempotent: true }),
        p.ok('idempotent again', { type: ids.effectType, idempotent: true }),
        p.ok('by display name, flexible', { type: ` ${ids.effectType.toUpperCase()} `, idempotent: true }),
        p.miss('unknown type', { type: 'no-such-effect' }),
        p.bad('no type', {}),
        p.bad('empty type', { type: '' }),
        p.bad('type over 256', { type: long(257) }),
        p.bad('type not a string', { type: 3 }),
        p.bad('idempotent not boolean', { type: ids.effectType, idempotent: 'yes' }),
        p.bad('body over 64 KiB', { type: long(70_000) }, 413),
      ];
    },
  },
  listChain: { method: 'GET', cases: () => [ok('chain', A('/effects'))] },
  listEffectParams: { method: 'GET', cases: () => [ok('chain with inputs', A('/effects/params'))] },
  getOscQuery: {
    method: 'GET',
    cases: () => [
      ok('namespace', A('/osc')),
      ok('host info', A('/osc?HOST_INFO=1')),
      ok('host info, bare key', A('/osc?HOST_INFO'), { directOnly: 'Prism reads an empty query value as an absent one' }),
      bad('host info too long', A(`/osc?HOST_INFO=${'x'.repeat(65)}`), 400),
    ],
  },
  listEnabledEffects: { method: 'GET', cases: () => [ok('enabled effects', A('/effects/current'))] },
  toggleEffect: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/effects/toggle');
      return [
        p.ok('by index', { index: 1 }),
        p.ok('by name', { name: ids.effectType }),
        p.ok('both: name wins', { index: 99, name: ids.effectType }),
        p.miss('index past the end', { index: 99 }),
        p.miss('index 0 is a position miss', { index: 0 }),
        p.miss('unknown name', { name: 'blur-nope' }),
        p.bad('neither', {}),
        p.bad('index as string', { index: '1' }),
        p.bad('fractional index', { index: 1.5 }),
        p.bad('empty name', { name: '' }),
        p.bad('name over 256', { name: long(257) }),
      ];
    },
  },
  setEffectEnabled: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/effects/enabled');
      return [
        p.ok('index on', { index: 1, enabled: true }),
        p.ok('name off', { name: ids.effectType, enabled: false }),
        p.ok('same again', { name: ids.effectType, enabled: false }),
        p.miss('index miss', { index: 40, enabled: true }),
        p.bad('no enabled', { index: 1 }),
        p.bad('no target', { enabled: true }),
        p.bad('enabled as string', { index: 1, enabled: 'true' }),
      ];
    },
  },
  getEffect: {
    method: 'GET',
    cases: () => [
      ok('first item with inputs', A('/effects/1')),
      { ...ok('position 0', A('/effects/0')), expect: [404] },
      { ...ok('past the end', A('/effects/99')), expect: [404] },
      bad('not a number: no route', A('/effects/first'), 404),
    ],
  },
  setEffectParams: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/effects/params');
      return [
        p.ok('by index, clamped', { index: 1, values: { amount: 5 } }),
        p.ok('by name, delta', { name: ids.effectType, values: { amount: { delta: -0.5 } } }),
        { ...p.ok('wrong type', { index: 1, values: { amount: 'lots' } }), expect: [400] },
        { ...p.ok('unknown input', { index: 1, values: { nope: 1 } }), expect: [400] },
        p.miss('index miss', { index: 99, values: {} }),
        p.bad('no values', { index: 1 }),
        p.bad('no target', { values: {} }),
        p.bad('index as string', { index: '1', values: {} }),
      ];
    },
  },
  resetEffectParams: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/effects/reset');
      return [
        p.ok('all', { index: 1 }),
        p.ok('named', { name: ids.effectType, inputs: ['amount'] }),
        { ...p.ok('unknown input', { index: 1, inputs: ['nope'] }), expect: [400] },
        p.miss('index miss', { index: 99 }),
        p.bad('neither', {}),
        p.bad('inputs not an array', { index: 1, inputs: 'amount' }),
      ];
    },
  },
  modulateEffect: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/effects/modulate');
      const lfo = { kind: 'lfo', shape: 'sine', rate: '1/4', amount: 0.5 };
      return [
        p.ok('lfo by index', { index: 1, input: 'amount', modulator: lfo }),
        p.ok('up by the headroom', { index: 1, input: 'amount', modulator: { ...lfo, polarity: 'up', amountOf: 'headroom' } }),
        { ...p.ok('amountOf unknown', { index: 1, input: 'amount', modulator: { ...lfo, amountOf: 'room' } }), expect: [400] },
        p.ok('remove by name', { name: ids.effectType, input: 'amount', modulator: null }),
        { ...p.ok('rate 0', { index: 1, input: 'amount', modulator: { ...lfo, rate: 0 } }), expect: [400] },
        { ...p.ok('image input', { index: 1, input: 'inputImage', modulator: lfo }), expect: [400] },
        p.miss('index miss', { index: 99, input: 'amount', modulator: lfo }),
        p.bad('no input', { index: 1, modulator: lfo }),
      ];
    },
  },
  moveEffect: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/effects/move');
      return [
        p.ok('to its own place', { index: 1, to: 1 }),
        p.miss('to past the end', { index: 1, to: 99 }),
        p.miss('to 0', { index: 1, to: 0 }),
        p.bad('no to', { index: 1 }),
        p.bad('to as string', { index: 1, to: '1' }),
      ];
    },
  },
  savePreset: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/presets/save');
      return [
        p.ok('save', { index: 1, name: 'Contract Look', overwrite: true }),
        { ...p.ok('name taken', { effect: ids.effectType, name: 'Contract Look' }), expect: [409] },
        p.ok('overwrite', { effect: ids.effectType, name: 'Contract Look', overwrite: true }),
        p.miss('index miss', { index: 99, name: 'Other Look' }),
        p.bad('no name', { index: 1 }),
        p.bad('no target', { name: 'Other Look' }),
        p.bad('name without a letter or digit', { index: 1, name: '!!' }),
      ];
    },
  },
  removeEffect: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/effects/remove');
      return [
        p.miss('unknown type', { type: 'nope' }),
        p.miss('index miss', { index: 7 }),
        p.bad('neither', {}),
        p.bad('index as string', { index: 'first' }),
        p.ok('by type', { type: ids.effectType }),
      ];
    },
  },
  listPalettes: { method: 'GET', cases: () => [ok('palettes', A('/palettes'))] },
  selectPalette: {
    method: 'POST',
    jsonBody: true,
    cases: (ids) => {
      const p = post('/palettes/select');
      return [
        p.ok('by id', { id: ids.paletteId }),
        p.ok('by name', { name: ids.paletteName.toLowerCase() }),
        p.miss('unknown id', { id: 'nope' }),
        p.bad('neither', {}),
        p.bad('blank name', { name: ' ' }),
        p.bad('id not string', { id: true }),
      ];
    },
  },
  getCurrentPalette: { method: 'GET', cases: () => [ok('current palette', A('/palettes/current'))] },
  nextPalette: {
    method: 'POST',
    cases: () => {
      const path = A('/palettes/next');
      return [
        ok('no body', path),
        ok('empty object', path, { body: {} }),
        ok('any JSON is ignored', path, { body: { x: 1 } }),
        ok('JSON array is ignored', path, { body: [1, 2] }),
        bad('text body', path, 415, { raw: { text: 'next please', type: 'text/plain' } }),
        bad('body without content type', path, 415, {
          raw: { text: '{"x":1}', type: '' },
          directOnly: 'Prism reads it as a JSON string, which this body schema accepts',
        }),
      ];
    },
  },
  getGlobal: { method: 'GET', cases: () => [ok('global', A('/global'))] },
  setBlackout: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/global/blackout');
      return [
        p.ok('on', { enabled: true }),
        p.ok('off', { enabled: false }),
        p.bad('string', { enabled: 'yes' }),
        p.bad('number', { enabled: 1 }),
        p.bad('missing', {}),
      ];
    },
  },
  setDimmer: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/global/dimmer');
      return [
        p.ok('half', { value: 0.5 }),
        p.ok('full', { value: 1 }),
        p.ok('zero', { value: 0 }),
        p.bad('above 1', { value: 1.5 }),
        p.bad('below 0', { value: -0.1 }),
        p.bad('string', { value: '0.5' }),
        p.bad('missing', {}),
      ];
    },
  },
  listActions: { method: 'GET', cases: () => [ok('actions', A('/actions'))] },
  triggerAction: {
    method: 'POST',
    cases: (ids) => [
      ...ids.actions.map((a) => ok(`action ${a}`, A(`/actions/${a}`))),
      ok('JSON body ignored', A('/actions/global.blackout-off'), { body: { any: 'thing' } }),
      { ...ok('unknown action', A('/actions/nope')), expect: [404] },
      bad('text body', A('/actions/global.blackout-off'), 415, { raw: { text: 'go', type: 'text/plain' } }),
    ],
  },
  listOutputs: { method: 'GET', cases: () => [ok('outputs', A('/outputs'))] },
  addOutput: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/outputs/add');
      const small = { width: 160, height: 90, fps: 5 };
      return [
        // 403 once a second pass of the corpus meets the 8-output ceiling.
        p.ok('recording', { kind: 'record', name: 'contract-rec', encoder: 'x264', ...small }, [200, 403]),
        p.ok('udp stream', { kind: 'stream', name: 'contract-udp', url: 'udp://127.0.0.1:9?pkt_size=1316', ...small }, [200, 403]),
        p.bad('file url', { kind: 'stream', url: 'file:///etc/passwd' }),
        p.bad('pipe url', { kind: 'stream', url: 'pipe:1' }),
        p.bad('option text', { kind: 'stream', url: 'udp://127.0.0.1:9 -i x' }),
        p.bad('unknown kind', { kind: 'display' }),
        p.bad('fps 0', { kind: 'record', fps: 0 }),
        p.bad('unknown encoder', { kind: 'record', encoder: 'bogus' }),
        p.bad('neither', {}),
        // Rules the description cannot state: a stream needs a url, a recording takes none.
        { ...p.ok('stream without url', { kind: 'stream' }), expect: [400] },
        { ...p.ok('recording with url', { kind: 'record', url: 'udp://127.0.0.1:9' }), expect: [400] },
      ];
    },
  },
  setOutputEnabled: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/outputs/enabled');
      return [
        p.ok('disable by name', { name: 'contract-rec', enabled: false }, [200, 404]),
        p.ok('enable by name', { name: 'contract-rec', enabled: true }, [200, 404]),
        p.miss('unknown id', { id: 'nope', enabled: true }),
        p.bad('enabled not boolean', { name: 'contract-rec', enabled: 'yes' }),
      ];
    },
  },
  removeOutput: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/outputs/remove');
      return [
        p.ok('udp stream by name', { name: 'contract-udp' }, [200, 404]),
        p.ok('recording by name', { name: 'contract-rec' }, [200, 404]),
        p.miss('unknown id', { id: 'nope' }),
        p.bad('id not string', { id: 5 }),
      ];
    },
  },
  setOutputMap: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const corners = [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ];
      return [
        { ...ok('unknown output, clear', A('/outputs/nope/map'), { body: { map: null } }), expect: [404] },
        { ...ok('unknown output, corner-pin', A('/outputs/nope/map'), { body: { map: { corners } } }), expect: [404] },
        bad('map not an object', A('/outputs/nope/map'), 400, { body: { map: 5 } }),
        bad('three corners', A('/outputs/nope/map'), 400, { body: { map: { corners: corners.slice(1) } } }),
        bad('unknown field', A('/outputs/nope/map'), 400, { body: { map: { warp: true } } }),
      ];
    },
  },
  listRecordings: { method: 'GET', cases: () => [ok('recordings', A('/recordings'))] },
  getRecording: {
    method: 'GET',
    cases: (ids) => [
      ok('whole file', A(`/recordings/${ids.recording}`)),
      ok('byte range', A(`/recordings/${ids.recording}`), { headers: { range: 'bytes=0-99' }, expect: [206] }),
      ok('suffix range', A(`/recordings/${ids.recording}`), { headers: { range: 'bytes=-10' }, expect: [206] }),
      ok('two ranges: the whole file', A(`/recordings/${ids.recording}`), { headers: { range: 'bytes=0-1,5-6' } }),
      ok('range past the end', A(`/recordings/${ids.recording}`), { headers: { range: 'bytes=99999999-' }, expect: [416] }),
      { ...ok('unknown file', A('/recordings/nope.mkv')), expect: [404] },
      { ...ok('a path, not a name', A('/recordings/..%2Fstate.json')), expect: [404] },
    ],
  },
  deleteRecording: {
    method: 'DELETE',
    cases: (ids) => [
      // 404 once a second pass of the corpus finds it gone.
      ok('a finished recording', A(`/recordings/${ids.recordingToDelete}`), { expect: [200, 404] }),
      { ...ok('unknown file', A('/recordings/nope.mkv')), expect: [404] },
      { ...ok('a path, not a name', A('/recordings/..%2F..%2Fetc%2Fpasswd')), expect: [404] },
    ],
  },
  getOutputPreview: {
    method: 'GET',
    cases: () => {
      const endless = {
        endless: true,
        directOnly: 'an endless multipart stream: Prism would wait for its end, so status and headers are checked here',
      };
      return [
        ok('defaults', A('/output/preview.mjpeg'), endless),
        ok('size and fps', A('/output/preview.mjpeg?size=320&fps=5'), endless),
        ok('out of range, clamped', A('/output/preview.mjpeg?size=99999&fps=0'), endless),
        ok('junk values take the defaults', A('/output/preview.mjpeg?size=abc&fps=1e3'), endless),
      ];
    },
  },
  getEvents: {
    method: 'GET',
    cases: () => [
      { name: 'plain GET of the WebSocket: 426', path: A('/events'), valid: true, expect: [426] },
      { name: 'plain GET, query ignored', path: A('/events?x=1'), valid: true, expect: [426] },
    ],
  },
  getCurrentThumbnail: { method: 'GET', cases: () => thumbCases(A('/thumbnails/current'), true) },
  getLiveThumbnail: {
    method: 'GET',
    cases: (ids) => [
      ...thumbCases(A(`/thumbnails/live/${ids.live}`), true),
      ok('browse node id', A(`/thumbnails/live/liveInput:${ids.live}`)),
      { ...ok('unknown input', A('/thumbnails/live/nope')), expect: [404] },
      // Over 256 characters: the description refuses it, the server answers 404 DEVICE_NOT_FOUND (spec section 4).
      bad('id over 256', A(`/thumbnails/live/${long(257)}`), 404),
    ],
  },
  getSourceThumbnail: {
    method: 'GET',
    cases: (ids) => [
      ...thumbCases(A(`/thumbnails/source/${ids.generator}`), false),
      { ...ok('unknown source', A('/thumbnails/source/source:nope')), expect: [404] },
      bad('id over 256', A(`/thumbnails/source/${long(300)}`), 404),
    ],
  },
  getPaletteThumbnail: {
    method: 'GET',
    cases: (ids) => [
      ...thumbCases(A(`/thumbnails/palette/${ids.paletteId}`), false),
      ok('by name', A(`/thumbnails/palette/${encodeURIComponent(ids.paletteName)}`)),
      { ...ok('unknown palette', A('/thumbnails/palette/nope')), expect: [404] },
      bad('id over 256', A(`/thumbnails/palette/${long(257)}`), 404),
    ],
  },
  getAudio: { method: 'GET', cases: () => [ok('audio', A('/audio'))] },
  getAudioLevels: { method: 'GET', cases: () => [ok('levels', A('/audio/levels'))] },
  selectAudio: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/audio/select');
      return [
        p.ok('by id', { id: 'click' }),
        p.ok('none by name', { name: 'None' }),
        p.ok('none by id', { id: 'none' }),
        p.miss('unknown id', { id: 'nope' }),
        p.bad('neither', {}),
        p.bad('blank name', { name: ' ' }),
        p.bad('id not string', { id: 3 }),
      ];
    },
  },
  setAudioSettings: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/audio/settings');
      return [
        p.ok('offset', { offsetMs: 40 }),
        p.ok('fixed gain', { gain: 2 }),
        p.ok('automatic gain and no offset', { gain: null, offsetMs: 0 }),
        p.ok('nothing to change', {}),
        p.bad('offset too large', { offsetMs: 501 }),
        p.bad('gain zero', { gain: 0 }),
        p.bad('gain a string', { gain: 'auto' }),
      ];
    },
  },
  listAudioInputs: { method: 'GET', cases: () => [ok('inputs', A('/audio/inputs'))] },
  addAudioInput: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/audio/inputs/add');
      return [
        // 409 once a second pass of the corpus meets the id it added.
        p.ok('stream', { id: 'contract-radio', kind: 'stream', url: 'udp://127.0.0.1:9' }, [200, 409]),
        p.ok('program', { id: 'contract-program', kind: 'program', name: 'Program again' }, [200, 409]),
        p.ok('id of a config input', { id: 'click', kind: 'program' }, [409]),
        p.ok('file outside the library', { kind: 'file', file: '../../etc/passwd' }, [400]),
        p.ok('file url scheme', { kind: 'stream', url: 'file:///etc/passwd' }, [400]),
        p.ok('option text', { kind: 'stream', url: '-i' }, [400]),
        p.bad('test kind', { kind: 'test' }),
        p.bad('url over the limit', { kind: 'stream', url: `udp://${long(2100)}` }),
        p.bad('unknown field', { kind: 'program', source: 'sine' }),
        p.bad('neither', {}),
      ];
    },
  },
  editAudioInput: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/audio/inputs/edit');
      return [
        p.ok('rename', { id: 'contract-radio', name: 'Contract radio' }, [200, 404]),
        p.ok('config input', { id: 'click', name: 'Mine' }, [409]),
        p.miss('unknown id', { id: 'nope', name: 'x' }),
        p.bad('no id', { name: 'x' }),
      ];
    },
  },
  removeAudioInput: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/audio/inputs/remove');
      return [
        p.ok('added', { id: 'contract-radio' }, [200, 404]),
        p.ok('added program', { id: 'contract-program' }, [200, 404]),
        p.ok('config input', { id: 'click' }, [409]),
        p.miss('unknown id', { id: 'nope' }),
        p.bad('id not string', { id: 5 }),
      ];
    },
  },
  getDmx: { method: 'GET', cases: () => [ok('receiver', A('/dmx'))] },
  getDmxPersonality: { method: 'GET', cases: () => [ok('layout', A('/dmx/personality'))] },
  getMidi: { method: 'GET', cases: () => [ok('midi', A('/midi'))] },
  getShow: { method: 'GET', cases: () => [ok('no show', A('/show'))] },
  learnMidi: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/midi/learn');
      // The fixture runs with MIDI off: a well-formed learn is refused at once instead of waiting for a message.
      return [
        p.ok('while MIDI is off', { to: '/vjd/global/dimmer', mode: 'absolute', feedback: true }, [400]),
        p.ok('by operation while MIDI is off', { operation: '/vjd/global/dimmer', mode: 'toggle' }, [400]),
        p.bad('not a vjd address', { to: '/other/dimmer' }),
        p.bad('no address', {}),
        p.bad('both address fields', { operation: '/vjd/global/dimmer', to: '/vjd/global/dimmer' }),
        p.bad('unknown mode', { to: '/vjd/global/dimmer', mode: 'sideways' }),
        p.bad('extra field', { to: '/vjd/global/dimmer', port: 'x' }),
      ];
    },
  },
  getTempo: { method: 'GET', cases: () => [ok('tempo', A('/tempo'))] },
  tapTempo: {
    method: 'POST',
    cases: () => [ok('no body', A('/tempo/tap')), ok('empty object', A('/tempo/tap'), { body: {} })],
  },
  resyncTempo: {
    method: 'POST',
    cases: () => [ok('no body', A('/tempo/resync')), ok('empty object', A('/tempo/resync'), { body: {} })],
  },
  setTempoBpm: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/tempo/bpm');
      return [
        p.ok('128', { bpm: 128 }),
        p.ok('fractional', { bpm: 99.5 }),
        p.bad('zero', { bpm: 0 }),
        p.bad('too fast', { bpm: 1000 }),
        p.bad('NaN as a string', { bpm: 'NaN' }),
        p.bad('missing', {}),
      ];
    },
  },
  nudgeTempo: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/tempo/nudge');
      return [p.ok('later', { ms: 20 }), p.ok('earlier', { ms: -20 }), p.bad('too far', { ms: 5000 }), p.bad('missing', {})];
    },
  },
  multiplyTempo: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/tempo/multiply');
      return [p.ok('double', { factor: 2 }), p.ok('half', { factor: 0.5 }), p.bad('three', { factor: 3 }), p.bad('missing', {})];
    },
  },
  setTempoSource: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/tempo/source');
      return [p.ok('manual', { source: 'manual' }), p.ok('auto', { source: 'auto' }), p.bad('unknown', { source: 'midi' })];
    },
  },
  setTempoRange: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/tempo/range');
      return [
        p.ok('default', { min: 75, max: 150 }),
        p.ok('too narrow', { min: 120, max: 125 }, [400]),
        p.ok('reversed', { min: 150, max: 75 }, [400]),
        p.bad('below 20', { min: 10, max: 150 }),
        p.bad('max missing', { min: 75 }),
      ];
    },
  },
  // The fixture's program is no clip: well-formed transport requests answer 409 NOT_A_CLIP (test/transport plays one).
  getTransport: { method: 'GET', cases: () => [ok('both buses', A('/transport'))] },
  playTransport: {
    method: 'POST',
    cases: () => [ok('no body', A('/transport/play'), { expect: [409] }), post('/transport/play').bad('unknown bus', { bus: 'aux' })],
  },
  pauseTransport: {
    method: 'POST',
    cases: () => [ok('preview bus', A('/transport/pause'), { body: { bus: 'preview' }, expect: [409] })],
  },
  toggleTransport: { method: 'POST', cases: () => [ok('empty object', A('/transport/toggle'), { body: {}, expect: [409] })] },
  restartTransport: { method: 'POST', cases: () => [ok('no body', A('/transport/restart'), { expect: [409] })] },
  seekTransport: {
    method: 'POST',
    cases: () => {
      const p = post('/transport/seek');
      return [
        p.ok('position', { positionS: 1.5 }, [409]),
        p.ok('fraction', { fraction: 0.5 }, [409]),
        p.ok('cue', { cue: 'drop' }, [409]),
        p.bad('negative', { positionS: -1 }),
        p.bad('NaN as a string', { positionS: 'NaN' }),
        p.bad('fraction above 1', { fraction: 1.5 }),
        p.bad('empty cue name', { cue: '' }),
      ];
    },
  },
  setTransportSpeed: {
    method: 'POST',
    cases: () => {
      const p = post('/transport/speed');
      return [
        p.ok('double', { speed: 2 }, [409]),
        p.ok('four beats', { sync: { beats: 4 } }, [409]),
        p.bad('zero', { speed: 0 }),
        p.bad('too fast', { speed: 100 }),
        p.bad('no beats', { sync: {} }),
      ];
    },
  },
  setTransportLoop: {
    method: 'POST',
    cases: () => {
      const p = post('/transport/loop');
      return [
        p.ok('once', { mode: 'once' }, [409]),
        p.ok('ping-pong', { mode: 'ping-pong' }, [400, 409]),
        p.bad('unknown mode', { mode: 'sideways' }),
      ];
    },
  },
  setTransportEnd: {
    method: 'POST',
    cases: () => {
      const p = post('/transport/end');
      return [p.ok('take', { mode: 'take' }, [409]), p.bad('unknown mode', { mode: 'sideways' }), p.bad('no mode', {})];
    },
  },
  setTransportInOut: {
    method: 'POST',
    cases: () => {
      const p = post('/transport/inout');
      return [p.ok('both', { in: 1, out: 3 }, [409]), p.ok('clear', { in: null, out: null }, [409]), p.bad('negative', { in: -1 })];
    },
  },
  addTransportCue: {
    method: 'POST',
    cases: () => {
      const p = post('/transport/cues');
      return [
        p.ok('cue', { name: 'drop', positionS: 2 }, [409]),
        p.bad('no name', { positionS: 2 }),
        p.bad('long name', { name: long(65), positionS: 1 }),
      ];
    },
  },
  removeTransportCue: {
    method: 'POST',
    cases: () => {
      const p = post('/transport/cues/remove');
      return [p.ok('cue', { name: 'drop' }, [409]), p.bad('no name', {})];
    },
  },
  setTransportChase: {
    method: 'POST',
    cases: () => {
      const p = post('/transport/chase');
      return [
        p.ok('start', { start: '01:00:00:00' }, [409]),
        p.ok('off', { start: null }, [409]),
        p.bad('not a timecode', { start: '1:00' }),
      ];
    },
  },
  getMediaThumbnail: {
    method: 'GET',
    cases: (ids) => [
      ...thumbCases(`/media/thumbnails/${ids.mediaId}`, false),
      { ...ok('unknown media', '/media/thumbnails/media-0000000000000000'), expect: [404] },
      bad('id over 256', `/media/thumbnails/${long(257)}`, 404),
    ],
  },
  modulateSource: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/sources/modulate');
      return [
        p.ok('unknown input or not a generator', { input: 'nope', modulator: null }, [400, 409]),
        p.bad('no input', { modulator: null }),
      ];
    },
  },
  modulateMix: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/mix/modulate');
      return [
        p.ok('beat', { modulator: { kind: 'beat', every: 4, amount: 0.2 } }),
        p.ok('remove', { modulator: null }),
        { ...p.ok('amount above 1', { modulator: { kind: 'beat', amount: 2 } }), expect: [400] },
      ];
    },
  },
  modulateGlobal: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/global/modulate');
      return [
        p.ok('audio', { input: 'dimmer', modulator: { kind: 'audio', source: 'bass', amount: -0.5 } }),
        p.ok('remove', { input: 'dimmer', modulator: null }),
        p.bad('not the dimmer', { input: 'blackout', modulator: null }),
      ];
    },
  },
  freezeModulation: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/modulation/freeze');
      return [p.ok('on', { enabled: true }), p.ok('off', { enabled: false }), p.bad('not a boolean', { enabled: 'yes' })];
    },
  },
  getModulation: {
    method: 'GET',
    cases: () => [ok('overview', A('/modulation'))],
  },
  // Layers and scenes: the stack grows, changes and shrinks back; requests sent twice (Prism and direct) stay valid.
  listLayers: { method: 'GET', cases: () => [ok('stack', A('/layers'))] },
  addLayer: {
    method: 'POST',
    cases: (ids) => {
      const p = post('/layers/add');
      return [
        p.ok('empty', {}),
        p.ok('with a source, blend and opacity', { source: ids.generator, blend: 'screen', opacity: 0.5, name: 'Contract' }),
        p.miss('unknown source', { source: 'no-such-source' }),
        p.bad('opacity above 1', { opacity: 2 }),
        { ...p.ok('unknown blend', { blend: 'sparkle' }), expect: [400] },
        p.bad('blend over 64', { blend: long(65) }),
        p.bad('name blank', { name: '  ' }),
      ];
    },
  },
  setLayerOpacity: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/layers/opacity');
      return [
        p.ok('half', { layer: 2, value: 0.5 }),
        p.miss('no such layer', { layer: 8, value: 0.5 }),
        p.bad('value above 1', { layer: 2, value: 1.5 }),
        p.bad('layer 0', { layer: 0, value: 1 }),
        p.bad('layer as string', { layer: '2', value: 1 }),
        p.bad('no value', { layer: 2 }),
      ];
    },
  },
  setLayerBlend: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/layers/blend');
      return [
        p.ok('add', { layer: 2, mode: 'add' }),
        p.miss('no such layer', { layer: 8, mode: 'add' }),
        { ...p.ok('unknown mode', { layer: 2, mode: 'sparkle' }), expect: [400] },
      ];
    },
  },
  setLayerMute: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/layers/mute');
      return [
        p.ok('on', { layer: 2, enabled: true }),
        p.ok('off', { layer: 2, enabled: false }),
        p.bad('not a boolean', { layer: 2, enabled: 1 }),
      ];
    },
  },
  setLayerSolo: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/layers/solo');
      return [
        p.ok('on', { layer: 2, enabled: true }),
        p.ok('off', { layer: 2, enabled: false }),
        p.miss('no such layer', { layer: 8, enabled: true }),
      ];
    },
  },
  setLayerName: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/layers/name');
      return [p.ok('rename', { layer: 2, name: 'Top' }), p.bad('too long', { layer: 2, name: long(65) }), p.bad('no name', { layer: 2 })];
    },
  },
  moveLayer: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/layers/move');
      return [
        p.ok('down', { layer: 2, to: 1 }),
        p.ok('back', { layer: 1, to: 2 }),
        p.miss('past the top', { layer: 1, to: 8 }),
        p.bad('no to', { layer: 1 }),
      ];
    },
  },
  selectLayer: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/layers/select');
      return [p.ok('first', { layer: 1 }), p.miss('no such layer', { layer: 8 }), p.bad('none', {})];
    },
  },
  getLayerThumbnail: {
    method: 'GET',
    cases: () => [
      ...thumbQueries.map((q) => ok(`layer 1${q}`, A(`/thumbnails/layer/1${q}`), { expect: [200, 503] })),
      { ...ok('no such layer', A('/thumbnails/layer/8')), expect: [404] },
    ],
  },
  saveScene: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/scenes/save');
      return [
        p.ok('save', { name: 'Contract Scene' }),
        p.ok('again replaces', { name: 'contract scene' }),
        p.ok('a scratch scene', { name: 'Scratch Scene' }),
        p.bad('blank', { name: ' ' }),
        p.bad('too long', { name: long(65) }),
      ];
    },
  },
  listScenes: { method: 'GET', cases: () => [ok('scenes', A('/scenes'))] },
  listScheduled: { method: 'GET', cases: () => [ok('scheduled', A('/show/scheduled'))] },
  getTimecode: { method: 'GET', cases: () => [ok('timecode', A('/timecode'))] },
  listCues: { method: 'GET', cases: () => [ok('cues', A('/cues'))] },
  addCue: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/cues/add');
      return [
        p.ok('manual', { name: 'Contract Cue', actions: [{ op: '/global/dimmer', body: { value: 1 } }] }),
        p.ok('on timecode, first', { name: 'Contract Cue Two', trigger: { kind: 'timecode', at: '10:00:00:00' }, index: 0 }),
        p.bad('no name', {}),
        // Well-formed to the description, refused by the list's own rules.
        p.ok('unknown route', { name: 'x', actions: [{ op: '/nowhere' }] }, [400]),
        p.ok('a cues route', { name: 'x', actions: [{ op: '/cues/go' }] }, [400]),
        p.bad('bad trigger', { name: 'x', trigger: { kind: 'sometime' } }),
        p.ok('not a time of day', { name: 'x', trigger: { kind: 'timecode', at: '24:00:00:00' } }, [400]),
      ];
    },
  },
  editCue: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/cues/edit');
      return [p.ok('rename', { id: 'contract-cue', name: 'Contract Cue' }), p.miss('unknown', { id: 'nope' }), p.bad('no id', {})];
    },
  },
  moveCue: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/cues/move');
      return [
        p.ok('to the end', { id: 'contract-cue-two', index: 9 }),
        p.miss('unknown', { id: 'nope', index: 0 }),
        p.bad('no index', { id: 'x' }),
      ];
    },
  },
  armCues: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/cues/arm');
      return [p.ok('disarm', { armed: false }), p.ok('arm', { armed: true }), p.bad('not a boolean', { armed: 'yes' })];
    },
  },
  goCue: {
    method: 'POST',
    cases: () => {
      const p = post('/cues/go');
      return [p.ok('first', {}), p.ok('second', {}), p.ok('past the end', {}, [409])];
    },
  },
  backCue: { method: 'POST', cases: () => [post('/cues/back').ok('back', {})] },
  jumpCue: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/cues/jump');
      return [p.ok('by name', { id: 'Contract Cue Two' }), p.miss('unknown', { id: 'nope' }), p.bad('no id', {})];
    },
  },
  deleteCue: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/cues/delete');
      return [p.ok('one', { id: 'contract-cue-two' }), p.miss('again', { id: 'contract-cue-two' }), p.bad('no id', {})];
    },
  },
  getPixelmap: { method: 'GET', cases: () => [ok('pixel map', A('/pixelmap'))] },
  addPixelFixture: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/pixelmap/fixtures/add');
      const strip = { kind: 'strip', x1: 0, y1: 0.5, x2: 1, y2: 0.5, pixels: 10 };
      const matrix = { kind: 'matrix', x: 0, y: 0, w: 1, h: 0.5, cols: 4, rows: 2, serpentine: true, start: 'bottom-left' };
      return [
        p.ok('strip', { name: 'Contract Strip', geometry: strip, destination: '127.0.0.1' }),
        p.ok('matrix on sACN', {
          name: 'Contract Matrix',
          geometry: matrix,
          destination: '127.0.0.1',
          protocol: 'sacn',
          colorOrder: 'GRBW',
        }),
        // Well-formed to the description, refused by the patch's own rules.
        p.ok('not a configured destination', { name: 'x', geometry: strip, destination: '127.0.0.2' }, [400]),
        p.ok('overlapping the strip', { name: 'x', geometry: strip, destination: '127.0.0.1', address: 4 }, [400]),
        p.ok('past the last Art-Net universe', { name: 'x', geometry: strip, destination: '127.0.0.1', universe: 40000 }, [400]),
        p.bad('no geometry', { name: 'x', destination: '127.0.0.1' }),
        p.bad('unknown colour order', { name: 'x', geometry: strip, destination: '127.0.0.1', colorOrder: 'RGBA' }),
        p.bad('pixel outside the program', { name: 'x', geometry: { kind: 'pixel', x: 1.5, y: 0 }, destination: '127.0.0.1' }),
      ];
    },
  },
  editPixelFixture: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/pixelmap/fixtures/edit');
      return [
        p.ok('gamma', { id: 'contract-strip', gamma: 2.2, brightness: 0.5 }),
        p.ok('onto the matrix', { id: 'Contract Strip', protocol: 'sacn', universe: 1 }, [400]),
        p.miss('unknown', { id: 'nope', gamma: 2 }),
        p.bad('no id', { gamma: 2 }),
      ];
    },
  },
  setPixelTest: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/pixelmap/test');
      return [p.ok('each', { mode: 'each' }), p.ok('off', { mode: 'off' }), p.bad('unknown mode', { mode: 'red' })];
    },
  },
  removePixelFixture: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/pixelmap/fixtures/remove');
      return [p.ok('one', { id: 'contract-matrix' }), p.miss('again', { id: 'contract-matrix' }), p.bad('no id', {})];
    },
  },
  cancelScheduled: {
    method: 'POST',
    cases: () => [
      { ...ok('unknown id', A('/show/scheduled/s999999/cancel'), { body: {} }), expect: [404] },
      { ...ok('unknown id, no body', A('/show/scheduled/s999999/cancel')), expect: [404] },
    ],
  },
  getSceneThumbnail: {
    method: 'GET',
    cases: () => [
      ok('saved scene', A('/thumbnails/scene/contract-scene')),
      { ...ok('conditional', A('/thumbnails/scene/contract-scene'), { expect: [200, 304] }), conditional: true },
      { ...ok('unknown', A('/thumbnails/scene/nope')), expect: [404] },
    ],
  },
  recallScene: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/scenes/recall');
      return [
        p.ok('by id', { id: 'contract-scene' }),
        p.ok('by name with a fade', { name: 'Contract Scene', transition: 'fade', durationMs: 100 }),
        p.miss('unknown', { id: 'nope' }),
        p.miss('unknown transition', { id: 'contract-scene', transition: 'nope' }),
        p.bad('neither', {}),
        p.bad('duration over the maximum', { id: 'contract-scene', durationMs: 999_999 }),
      ];
    },
  },
  deleteScene: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/scenes/delete');
      return [p.miss('unknown', { id: 'nope' }), p.bad('neither', {}), p.ok('by id', { id: 'scratch-scene' })];
    },
  },
  removeLayer: {
    method: 'POST',
    jsonBody: true,
    cases: () => {
      const p = post('/layers/remove');
      return [p.ok('top', { layer: 2 }), p.miss('no such layer', { layer: 8 }), p.bad('none', {})];
    },
  },
};

/** The chain and select routes again under /layers/1/…: the same cases, addressed to the bottom layer's own chain. */
const PER_LAYER = [
  'addEffect',
  'listChain',
  'listEffectParams',
  'listEnabledEffects',
  'toggleEffect',
  'setEffectEnabled',
  'getEffect',
  'setEffectParams',
  'resetEffectParams',
  'moveEffect',
  'removeEffect',
  'getCurrentSource',
  'selectSource',
];
for (const id of PER_LAYER) {
  const base = CORPUS[id]!;
  CORPUS[`layer${id[0]!.toUpperCase()}${id.slice(1)}`] = {
    ...base,
    cases: (ids) => [
      ...base.cases(ids).map((c) => ({ ...c, path: c.path.replace('/api/v1/', '/api/v1/layers/1/') })),
      {
        ...ok('no such layer', base.cases(ids)[0]!.path.replace('/api/v1/', '/api/v1/layers/8/')),
        body: base.cases(ids)[0]!.body,
        expect: [404],
      },
    ],
  };
}
