// test-lane: alone (loads the box itself)
// Short load run (500 jittered control-surface pollers for 20 s against a real vjd): no unexpected answers (the
// documented overload answers are counted), the render clock kept, the frame rate back after the load, RSS flat.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runSoak, soakVerdict, type SoakResult } from '../../bench/soak-run.js';
import { RESULTS_DIR } from '../helpers/server.js';

const SECONDS = Number(process.env.VJD_LOAD_TEST_SECONDS ?? 20);
const POLLERS = 500;
let result: SoakResult;

test.before(async () => {
  result = await runSoak({ seconds: SECONDS, pollers: POLLERS });
  const g = result.groups;
  const documented = Object.entries(result.codes).filter(([k]) => k.startsWith('503 ') || k.startsWith('403 '));
  process.stdout.write(
    `load: ${result.total} requests, ${result.rps} req/s, p50 ${result.overall.p50ms} ms, p99 ${result.overall.p99ms} ms, max ${result.overall.maxMs} ms; ` +
      `codes ${JSON.stringify(result.codes)}; documented answers ${documented.length ? documented.map(([k, n]) => `${k} ×${n}`).join(', ') : 'none'}; ` +
      `RSS ${result.rss.firstMiB}→${result.rss.lastMiB} MiB (max ${result.rss.maxMiB}, second half ${result.rss.secondHalfGrowthPct} %); ` +
      `fps min ${result.fps.min} median ${result.fps.median} (idle ${result.fps.idleMedian}, back to 80 % ${result.fps.recoveredAfterMs} ms after the load); ` +
      `clock ${result.clock.frames} frames + ${result.clock.dropped} skipped of ${result.clock.slots} slots; thumb:current p99 ${g['thumb:current']?.p99ms} ms\n`,
  );
  const { samples: _samples, ...figures } = result;
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(join(RESULTS_DIR, 'load.json'), `${JSON.stringify(figures, null, 2)}\n`);
});

test('every route group was exercised, mutations included', () => {
  for (const [group, s] of Object.entries(result.groups)) assert.ok(s.count > 0, `${group} got no requests`);
  // Work done, not a rate: every poller got several answers, however slow the machine (about 60 each when quiet).
  assert.ok(result.total >= POLLERS * 5, `only ${result.total} requests from ${POLLERS} pollers`);
  assert.ok(result.mutationShare > 0.005 && result.mutationShare < 0.05, `mutation share ${result.mutationShare}`);
});

test('no unexpected answers: only 2xx, 304, 403 EFFECT_LIMIT_REACHED and the documented 503s (PREVIEW_TIMEOUT, CHAIN_BUSY, THUMBNAIL_QUEUE_FULL with Retry-After)', () => {
  assert.is(result.unexpected, 0, result.unexpectedSamples.join('\n'));
  assert.ok((result.codes['304'] ?? 0) > 0, 'If-None-Match polling produced no 304');
});

// The suite runs on shared, loaded machines, so the frame rate under load is not bounded here (`npm run soak`,
// scripts/soak.mjs, holds the 80 % line on a quiet machine). What must hold anywhere: the loop keeps its clock
// (every slot is a frame or a counted skip, none queued), and the rate comes back once the load stops.
test('the render loop keeps its clock under load: frames + skipped slots = elapsed slots (±10 %)', () => {
  const { frames, dropped, slots, spanS } = result.clock;
  assert.ok(spanS >= SECONDS / 2, `sampled ${spanS} s of the load`);
  assert.ok(frames > 0, 'frames were rendered during the load');
  assert.ok(
    Math.abs(frames + dropped - slots) <= slots * 0.1 + 2,
    `${frames} frames + ${dropped} skipped over ${spanS} s = ${slots} slots at ${result.fps.target} fps`,
  );
});

test('render fps comes back to 80 % of its idle rate within 30 s of the load ending', () => {
  assert.ok(
    result.fps.recoveredAfterMs !== null,
    `idle ${result.fps.idleMedian} fps, under load median ${result.fps.median}; not back to 80 % within 30 s`,
  );
});

test('server RSS grows at most 25 % over the second half', () => {
  assert.ok(result.rss.secondHalfGrowthPct <= 25, `RSS ${JSON.stringify(result.rss)}`);
});

test('the verdict the soak script exits on agrees (its 80 % fps line aside, see above)', () => {
  const failures = soakVerdict(result).failures.filter((f) => !f.startsWith('median render fps'));
  assert.equal(failures, []);
});

test.run();
