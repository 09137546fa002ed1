// The thumbnail admission queue: 32/16 hysteresis, shared identical jobs, concurrency, and the parameter rules.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ThumbQueue } from '../../src/thumbnails/queue.js';
import { ApiError } from '../../src/errors.js';
import { etagOf, fitSize, parseFormat, parseSize } from '../../src/thumbnails/params.js';
import { etagMatches as matchesEtag } from '../../src/util/etag.js';

function deferred(): { promise: Promise<string>; resolve: (v: string) => void } {
  let resolve!: (v: string) => void;
  const promise = new Promise<string>((r) => (resolve = r));
  return { promise, resolve };
}

test('admits up to 32, rejects above, keeps rejecting until the depth falls to 16', async () => {
  const q = new ThumbQueue({ high: 32, low: 16, concurrency: 4 });
  const jobs = Array.from({ length: 32 }, () => deferred());
  const results = jobs.map((d, i) => q.submit(`k${i}`, () => d.promise));
  assert.is(q.depth, 32);
  assert.is(q.stats().running, 4);
  assert.is(q.stats().queued, 28);
  let err: unknown;
  try {
    q.submit('k-over', () => Promise.resolve('x'));
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof ApiError);
  assert.is((err as ApiError).code, 'THUMBNAIL_QUEUE_FULL');
  assert.is((err as ApiError).status, 503);
  assert.is((err as ApiError).headers?.['Retry-After'], '1');
  // Finish jobs one at a time: new work stays refused while depth is 17..31, and is admitted once it reaches 16.
  for (let i = 0; i < 16; i++) {
    jobs[i]!.resolve(`v${i}`);
    await results[i];
    await Promise.resolve();
    const depth = q.depth;
    if (depth > 16) {
      assert.ok(q.stats().rejecting, `still rejecting at depth ${depth}`);
      assert.throws(() => q.submit(`late${i}`, () => Promise.resolve('x')));
    }
  }
  assert.is(q.depth, 16);
  assert.is(q.stats().rejecting, false);
  const admitted = q.submit('after', () => Promise.resolve('ok'));
  for (let i = 16; i < 32; i++) jobs[i]!.resolve(`v${i}`);
  assert.is(await admitted, 'ok');
  await Promise.all(results);
  assert.is(q.depth, 0);
  const s = q.stats();
  assert.is(s.jobs, 33);
  assert.is(s.completed, 33);
  assert.ok(s.rejected >= 2);
});

test('identical keys in flight share one job and add no depth', async () => {
  const q = new ThumbQueue({ high: 32, low: 16, concurrency: 2 });
  const d = deferred();
  let runs = 0;
  const work = () => {
    runs++;
    return d.promise;
  };
  const a = q.submit('same', work);
  const b = q.submit('same', work);
  assert.is(q.depth, 1);
  d.resolve('image');
  assert.equal(await Promise.all([a, b]), ['image', 'image']);
  assert.is(runs, 1);
  assert.is(q.stats().shared, 1);
  // After it finished the key is free again: a new request is a new job.
  await q.submit('same', () => Promise.resolve('again'));
  assert.is(q.stats().jobs, 2);
});

test('a failing job frees its slot and reports its error', async () => {
  const q = new ThumbQueue({ high: 2, low: 1, concurrency: 1 });
  await q
    .submit('a', () => Promise.reject(new Error('boom')))
    .then(
      () => assert.unreachable(),
      (e: Error) => assert.is(e.message, 'boom'),
    );
  assert.is(q.depth, 0);
  assert.is(q.stats().failed, 1);
});

test('size: whole numbers clamp to 32-512, anything else is 192', () => {
  assert.is(parseSize(undefined), 192);
  assert.is(parseSize(''), 192);
  assert.is(parseSize('64'), 64);
  assert.is(parseSize('10'), 32);
  assert.is(parseSize('-5'), 32);
  assert.is(parseSize('9999'), 512);
  assert.is(parseSize('99999999999999999999999'), 512);
  assert.is(parseSize('100.5'), 192);
  assert.is(parseSize('abc'), 192);
  assert.is(parseSize('1'.repeat(40)), 192);
});

test('format: png or jpg, anything else png', () => {
  assert.is(parseFormat('jpg'), 'jpg');
  assert.is(parseFormat('png'), 'png');
  assert.is(parseFormat('gif'), 'png');
  assert.is(parseFormat(undefined), 'png');
});

test('fitted size: longest edge is size, the other follows the aspect', () => {
  assert.equal(fitSize(320, 240, 192), { width: 192, height: 144 });
  assert.equal(fitSize(1280, 720, 192), { width: 192, height: 108 });
  assert.equal(fitSize(720, 1280, 512), { width: 288, height: 512 });
  assert.equal(fitSize(4000, 10, 32), { width: 32, height: 1 });
});

test('ETag form and If-None-Match matching', () => {
  const e = etagOf('live', 192, 144, 'png', 'pabc');
  assert.is(e, '"live-192x144-png-pabc"');
  assert.ok(matchesEtag(e, e));
  assert.ok(matchesEtag(`"x", ${e}`, e));
  assert.ok(matchesEtag(`W/${e}`, e));
  assert.ok(matchesEtag('*', e));
  assert.not.ok(matchesEtag('', e));
  assert.not.ok(matchesEtag('"live-192x144-png-other"', e));
});

test.run();
