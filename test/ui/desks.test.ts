// The desks panel in Chromium: status lines for DMX and MIDI, and MIDI learn mode: click Learn, click the page's
// dimmer, move a control (a raw message through the device entry), and that control then drives the dimmer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { freeUdpPort } from '../helpers/osc.js';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open } from './browser.js';

let s: TestServer;
let browser: Browser;
let page: Page;

const get = async (p: string) => (await req('GET', `${s.base}/api/v1${p}`, { timeoutMs: 15000 })).json();
const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 30_000, 50).catch(() => {
    throw new Error(`timed out: ${what}`);
  });

test.before(async () => {
  const port = await freeUdpPort();
  s = await startServer({
    config: {
      render: { width: 160, height: 120, fps: 20 },
      dmx: { enabled: true, universe: 2, port },
      midi: { enabled: true },
    },
  });
  browser = await launch();
  page = (await open(browser, `${s.base}/ui/`)).page;
  await loaded(page);
});
test.after(async () => {
  await browser?.close();
  await s?.cleanup();
});

test('status lines show the DMX receiver and whether MIDI devices work here', async () => {
  await until(async () => /DMX artnet universe 2 at 1/.test((await page.getByTestId('dmx-status').textContent()) ?? ''), 'the DMX line');
  const midi = await get('/midi');
  const expected = midi.available ? /MIDI \d+ in/ : /MIDI devices unavailable/;
  await until(async () => expected.test((await page.getByTestId('midi-status').textContent()) ?? ''), 'the MIDI line');
});

test('learn mode: click the dimmer, move a knob, the knob drives the dimmer', async () => {
  assert.is((await req('POST', `${s.base}/api/v1/global/dimmer`, { body: { value: 0.3 } })).status, 200);
  const before = (await get('/global')).dimmer;
  await page.getByTestId('midi-learn').click();
  await page.getByTestId('dimmer').click();
  await until(async () => (await get('/midi')).learning === true, 'the learn waits');
  // The click picked the control without operating it.
  assert.is((await get('/global')).dimmer, before);
  const moved = await req('POST', `${s.base}/api/v1/_test/midi`, { body: { port: 'Knobs', messages: [[0xb5, 74, 10]] } });
  assert.is(moved.status, 200, moved.text);
  await until(
    async () =>
      /Bound cc 74 on channel 6 \(Knobs\) to \/vjd\/global\/dimmer/.test((await page.getByTestId('learn-message').textContent()) ?? ''),
    'the bound message',
  );
  await req('POST', `${s.base}/api/v1/_test/midi`, { body: { port: 'Knobs', messages: [[0xb5, 74, 127]] } });
  await until(async () => (await get('/global')).dimmer === 1, 'the knob sets the dimmer');
});

test.run();
