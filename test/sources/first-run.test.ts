// First run over real HTTP: a data dir without saved state starts with the embedded first-run preset on the
// program (the output moves, it is not black); a data dir with saved state keeps what was saved, even an empty
// program, and a program chosen after the first run survives the next start.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, tempDir, waitUntil, sampleOutput, type TestServer } from '../helpers/server.js';

const POINTS: Array<[number, number]> = [
  [0.25, 0.25],
  [0.5, 0.5],
  [0.75, 0.75],
];
const BLANK_STATE = { version: 1, chain: [], currentSource: null, paletteId: null, blackout: false, dimmer: 1 };
// `firstRun: undefined` leaves the key out of the config file, so the embedded default applies.
const DEFAULT_FIRST_RUN = { sources: { firstRun: undefined } };

let work = '';
const current = async (s: TestServer) => (await req('GET', `${s.base}/api/v1/sources/current`, { timeoutMs: 15000 })).json();
const lit = (pixels: number[][]): boolean => pixels.some((p) => Math.max(p[0]!, p[1]!, p[2]!) > 24);

test.before(async () => {
  work = await tempDir('vjd-first-run-');
});

test.after(async () => {
  await rm(work, { recursive: true, force: true });
});

test("a fresh data dir: the first-run preset is on the program, moving; the next start keeps the operator's choice", async () => {
  const dataDir = join(work, 'fresh');
  let s = await startServer({ dataDir, config: DEFAULT_FIRST_RUN });
  try {
    const c = await current(s);
    assert.is(c.id, 'preset:deep_plasma', JSON.stringify(c));
    assert.is(c.sourceKind, 'preset');
    const first = await sampleOutput(s.base, POINTS);
    assert.ok(lit(first), `the output is not black (${JSON.stringify(first)})`);
    await waitUntil(async () => JSON.stringify(await sampleOutput(s.base, POINTS)) !== JSON.stringify(first), 20000, 200);
    const sel = await req('POST', `${s.base}/api/v1/sources/select`, { body: { id: 'source:solid_color' }, timeoutMs: 20000 });
    assert.is(sel.status, 200, sel.text);
  } finally {
    await s.stop();
  }
  s = await startServer({ dataDir, config: DEFAULT_FIRST_RUN });
  try {
    assert.is((await current(s)).id, 'source:solid_color', 'the saved program wins over the first-run preset');
  } finally {
    await s.stop();
  }
});

test('a data dir with saved state and an empty program stays empty', async () => {
  const dataDir = join(work, 'saved');
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, 'state.json'), JSON.stringify(BLANK_STATE));
  const s = await startServer({ dataDir, config: DEFAULT_FIRST_RUN });
  try {
    assert.equal(await current(s), { id: '', name: '', sourceKind: 'none', type: 'none' });
    assert.not.ok(lit(await sampleOutput(s.base, POINTS)), 'nothing is on the program');
  } finally {
    await s.stop();
  }
});

test('sources.firstRun null: a fresh data dir starts with an empty program', async () => {
  const s = await startServer({ dataDir: join(work, 'off'), config: { sources: { firstRun: null } } });
  try {
    assert.is((await current(s)).sourceKind, 'none');
  } finally {
    await s.stop();
  }
});

test.run();
