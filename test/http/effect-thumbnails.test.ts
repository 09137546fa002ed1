// Effect thumbnails over real HTTP: GET /catalog/effects/{id}/thumbnail draws the effect over the render worker's
// test card. An operator's pass-through effect shows the plain card; the built-in invert is its negative; a repeat
// with the ETag is a 304; an edited file gets a new picture; unknown ids are 404 and a broken shader a 409.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { decodeImage, near, type Decoded } from '../helpers/images.js';

let s: TestServer;
let fxDir: string;
const url = (id: string, q = 'size=128&format=png'): string => `${s.base}/api/v1/catalog/effects/${encodeURIComponent(id)}/thumbnail?${q}`;

const PASS = (gain: string) => `/*{ "NAME": "Pass Through", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ] }*/
void main() { gl_FragColor = vec4(IMG_THIS_NORM_PIXEL(inputImage).rgb * ${gain}, 1.0); }`;
const BROKEN = `/*{ "NAME": "Broken Look", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ] }*/
void main() {
  gl_FragColor = IMG_THIS_NORM_PIXEL(inputImage) * missingFactor;
}`;

/** A thumbnail answered 200 (a loaded box may answer a documented 503 now and then: asked again). */
async function image(id: string): Promise<{ img: Decoded; etag: string }> {
  let r = await req('GET', url(id), { timeoutMs: 20000 });
  await waitUntil(
    async () => {
      if (r.status !== 503) return true;
      r = await req('GET', url(id), { timeoutMs: 20000 });
      return false;
    },
    60000,
    250,
  );
  assert.is(r.status, 200, `${id}: ${r.text}`);
  return { img: decodeImage(r.body, r.headers['content-type'] as string), etag: r.headers.etag as string };
}

test.before(async () => {
  const dataDir = await tempDir();
  fxDir = join(dataDir, 'fx');
  await mkdir(fxDir);
  await writeFile(join(fxDir, 'pass_through.fs'), PASS('1.0'));
  await writeFile(join(fxDir, 'broken_look.fs'), BROKEN);
  s = await startServer({ dataDir, config: { effects: { dirs: [fxDir] } } });
});
test.after(async () => {
  await s?.cleanup();
});

test('an effect over the test card: the stated size, the plain card through a pass-through, its negative through invert', async () => {
  const plain = await image('pass_through');
  // Render size 320×180 (the test default): size 128 is the longer edge.
  assert.is(plain.img.width, 128);
  assert.is(plain.img.height, 72);
  assert.match(plain.etag, /^"effect-128x72-png-e[0-9a-f]+"$/);
  // The card: white and blue bars at the top edge's ends, black at the ramp's left end, white at its right end.
  const at = (img: Decoded, fx: number, fy: number) => img.at(Math.round(fx * (img.width - 1)), Math.round(fy * (img.height - 1)));
  assert.ok(near(at(plain.img, 0.03, 0.1), [255, 255, 255]), `white bar: ${at(plain.img, 0.03, 0.1)}`);
  assert.ok(near(at(plain.img, 0.97, 0.1), [0, 0, 255]), `blue bar: ${at(plain.img, 0.97, 0.1)}`);
  assert.ok(near(at(plain.img, 0.02, 0.95), [0, 0, 0]), `ramp start: ${at(plain.img, 0.02, 0.95)}`);
  const inv = await image('invert');
  assert.is(inv.img.width, 128);
  assert.is(inv.img.height, 72);
  assert.ok(near(at(inv.img, 0.03, 0.1), [0, 0, 0]), `white bar inverted: ${at(inv.img, 0.03, 0.1)}`);
  assert.ok(near(at(inv.img, 0.97, 0.1), [255, 255, 0]), `blue bar inverted: ${at(inv.img, 0.97, 0.1)}`);
  // Every pixel is the plain card's negative (within encoding rounding), so the whole picture differs from it.
  let far = 0;
  for (let i = 0; i < plain.img.data.length; i += 4) {
    for (let c = 0; c < 3; c++) if (Math.abs(inv.img.data[i + c]! - (255 - plain.img.data[i + c]!)) > 24) far++;
  }
  assert.ok(far < plain.img.data.length / 100, `${far} channels are not the negative`);
  // A name finds the effect too.
  assert.is((await image('Invert')).etag, inv.etag);
});

test('a repeat with If-None-Match is a 304 without a body; the other format has its own ETag', async () => {
  const { etag } = await image('invert');
  const again = await req('GET', url('invert'), { headers: { 'If-None-Match': etag } });
  assert.is(again.status, 304);
  assert.is(again.body.length, 0);
  assert.is(again.headers.etag, etag);
  const jpg = await req('GET', url('invert', 'size=128&format=jpg'), { timeoutMs: 20000 });
  if (jpg.status === 200) {
    assert.is(jpg.headers['content-type'], 'image/jpeg');
    assert.is.not(jpg.headers.etag, etag);
  }
});

test('an edited effect file gets a new ETag and picture', async () => {
  const before = await image('pass_through');
  await writeFile(join(fxDir, 'pass_through.fs'), PASS('0.5'));
  let after = before;
  await waitUntil(
    async () => {
      after = await image('pass_through');
      return after.etag !== before.etag;
    },
    30000,
    250,
  );
  const white = after.img.at(3, 5);
  assert.ok(near(white, [128, 128, 128]), `the white bar at half gain: ${white}`);
  const old = await req('GET', url('pass_through'), { headers: { 'If-None-Match': before.etag }, timeoutMs: 20000 });
  assert.is.not(old.status, 304, 'the old ETag no longer matches');
});

test('an unknown effect is a 404 naming it; one that does not compile is a 409 with the compile message', async () => {
  const r = await req('GET', url('no_such_effect'));
  assert.is(r.status, 404);
  const body = r.json();
  assert.is(body.code, 'ITEM_NOT_FOUND');
  assert.match(body.message, /no_such_effect/);
  assert.is(body.details.requested, 'no_such_effect');
  assert.ok(body.details.available.includes('invert'));
  const long = await req('GET', url('x'.repeat(300)));
  assert.is(long.status, 404);
  const b = await req('GET', url('broken_look'));
  assert.is(b.status, 409, b.text);
  assert.is(b.json().code, 'EFFECT_NOT_COMPILED');
  assert.match(b.json().message, /broken_look\.fs line \d+/);
  assert.is(b.json().details.type, 'broken_look');
});

test.run();
