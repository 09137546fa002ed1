// The vjd Companion module's image feedbacks, subscription and connection errors, driven through the host protocol
// (host.ts): image feedbacks are PNGs at the button's size and an unchanged picture costs a 304 at vjd (no render or
// encode job), the program picture is refreshed by `thumbnail` events; the socket's subscription is exactly the
// topics of the feedbacks placed; a wrong key and an unreachable host are statuses, not crashes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, waitUntil } from '../helpers/server.js';
import { ModuleHost } from './host.js';
import { KEY, startVjd, type Vjd } from './setup.js';

let v: Vjd;
let host: ModuleHost;
const extra: ModuleHost[] = [];

test.before(async () => {
  // uvu reports a failed hook without its error: print it.
  try {
    await setup();
  } catch (err) {
    console.error('setup failed:', err);
    throw err;
  }
});

async function setup(): Promise<void> {
  v = await startVjd('vjd-companion-images-', { clip: false });
  await v.post('/sources/select', { id: 'source:plasma' });
  await v.post('/scenes/save', { name: 'Chorus' });
  host = await ModuleHost.start({ host: '127.0.0.1', port: v.port, variableGroups: [] }, { apiKey: KEY });
  await host.until(() => host.lastStatus() === 'ok', 60_000, 'status ok');
}
test.after(async () => {
  for (const h of [host, ...extra]) await h?.stop();
  await v?.cleanup();
});

const fb = (id: string) => host.feedbacks.get(id)?.value;

function pngSize(b64: string): { width: number; height: number } {
  const b = Buffer.from(b64, 'base64');
  assert.equal([...b.subarray(1, 4)], [0x50, 0x4e, 0x47], 'PNG signature');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

test('image feedbacks: PNG at the button size; an unchanged picture is a 304 at vjd', async () => {
  await host.setFeedbacks({ img: { feedbackId: 'source_image', options: { source: 'source:rings' }, image: { width: 72, height: 58 } } });
  await host.until(() => typeof fb('img')?.png64 === 'string', 30_000, 'source image');
  assert.is(pngSize(fb('img').png64).width, 72, 'longest edge = the button width');
  await host.until(() => host.variables.get('http_requests') !== undefined, 30_000, 'request counters');
  const before = await v.thumbs();
  const mod304 = Number(host.variables.get('http_not_modified'));
  // A second button showing the same picture: the module asks with If-None-Match and vjd answers 304.
  await host.setFeedbacks({ img2: { feedbackId: 'source_image', options: { source: 'source:rings' }, image: { width: 72, height: 58 } } });
  await host.until(() => fb('img2')?.png64 === fb('img').png64, 30_000, 'second image');
  // At least one: the counters are published once a second, so an earlier 304 (a redraw the first `thumbnail` event
  // asked for) may not have been counted in mod304 yet.
  await host.until(() => Number(host.variables.get('http_not_modified')) >= mod304 + 1, 30_000, "the module's 304");
  const after = await v.thumbs();
  // vjd counts it too (its own ETag watches of thumbnail URLs answer 304s as well, so at least one more).
  assert.ok(after.notModified >= before.notModified + 1, 'a 304 at vjd');
  assert.is(after.queue.jobs, before.queue.jobs, 'no render or encode job');
  await host.setFeedbacks({ scn: { feedbackId: 'scene_image', options: { scene: 'chorus' }, image: { width: 96, height: 96 } } });
  await host.until(() => typeof fb('scn')?.png64 === 'string', 30_000, 'scene image');
  // vjd keeps one image per scene at its own size (no `size` on that route): Companion fits it to the button.
  assert.ok(pngSize(fb('scn').png64).width > 0);
  // The program picture changes every frame: thumbnail events bring new pictures without any polling.
  await host.setFeedbacks({ prg: { feedbackId: 'program_image', image: { width: 72, height: 72 } } });
  await host.until(() => typeof fb('prg')?.png64 === 'string', 30_000, 'program image');
  const first = fb('prg').png64;
  await host.until(() => fb('prg').png64 !== first, 30_000, 'program image refreshed by events');
  await host.setFeedbacks({ img: null, img2: null, scn: null, prg: null });
});

test('the subscription is exactly the topics of the feedbacks in use', async () => {
  const h = await ModuleHost.start({ host: '127.0.0.1', port: v.port, variableGroups: [] }, { apiKey: KEY });
  extra.push(h);
  await h.until(() => h.lastStatus() === 'ok' && h.subscribed !== null && h.subscribed.length === 0, 30_000, 'empty subscription');
  await h.setFeedbacks({ a: { feedbackId: 'blackout' } });
  await h.until(() => h.subscribed?.join() === 'global', 30_000, 'global');
  await h.setFeedbacks({ b: { feedbackId: 'on_program', options: { source: 'x' } }, c: { feedbackId: 'beat_flash' } });
  await h.until(() => h.subscribed?.join() === 'global,mix,tempo', 30_000, 'global, mix, tempo');
  await h.setFeedbacks({ a: null, c: null });
  await h.until(() => h.subscribed?.join() === 'mix', 30_000, 'mix only');
  await h.setFeedbacks({ b: null });
  await h.until(() => h.subscribed?.length === 0, 30_000, 'nothing');
});

test('a wrong key and an unreachable host are connection statuses, not crashes', async () => {
  const bad = await ModuleHost.start({ host: '127.0.0.1', port: v.port, variableGroups: [] }, { apiKey: 'wrong' });
  extra.push(bad);
  await bad.until(() => bad.lastStatus() === 'bad_config', 30_000, 'bad_config');
  const port = await freePort();
  const gone = await ModuleHost.start({ host: '127.0.0.1', port, variableGroups: [] }, { apiKey: KEY });
  extra.push(gone);
  await gone.until(() => gone.lastStatus() === 'connection_failure', 30_000, 'connection_failure');
  // Both keep answering the host (an action fails cleanly) and keep retrying.
  const r = await gone.action('dimmer', { value: 0.5 });
  assert.is(r.success, false);
  await waitUntil(() => !bad.exited && !gone.exited, 1000);
  assert.not.ok(bad.exited || gone.exited);
});

test.run();
