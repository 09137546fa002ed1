// Program and layer thumbnails follow every output frame while the pipeline keeps up, and a few images a second
// while it is short: the label stays on the first frame of each run, so pollers get 304 within it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RefreshPace, SHORT_PIPELINE_THUMBS_PER_S } from '../../src/thumbnails/refresh-pace.js';

test('a quiet pipeline labels every frame as it is', () => {
  const pace = new RefreshPace(30);
  pace.follow(() => false);
  for (let f = 0; f < 60; f++) assert.is(pace.frame(f), f);
  assert.is(pace.held, 0);
});

test('a short pipeline holds each label for a run of frames, counts the held answers, and lets go when quiet', () => {
  let short = true;
  const pace = new RefreshPace(30);
  pace.follow(() => short);
  const labels = new Set<number>();
  for (let f = 0; f < 30; f++) labels.add(pace.frame(f));
  assert.is(labels.size, SHORT_PIPELINE_THUMBS_PER_S, `one second of frames: ${[...labels].join(', ')}`);
  assert.ok([...labels].every((l) => l % (30 / SHORT_PIPELINE_THUMBS_PER_S) === 0));
  assert.is(pace.held, 30 - SHORT_PIPELINE_THUMBS_PER_S);
  short = false;
  assert.is(pace.frame(31), 31);
  assert.is(pace.held, 30 - SHORT_PIPELINE_THUMBS_PER_S);
});

test('a frame rate below the short rate still labels every frame', () => {
  const pace = new RefreshPace(2);
  pace.follow(() => true);
  for (let f = 0; f < 10; f++) assert.is(pace.frame(f), f);
  assert.is(pace.held, 0);
});

test.run();
