// The control page across live API key changes: the events socket is closed (4401) on every change; the page tries
// once more with the key it holds and asks for the key only when that is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { editConfig, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { launch, loaded, open, ready } from './browser.js';

const OLD = 'ui-key-old-71c3';
const NEW = 'ui-key-new-0b9e';
let s: TestServer;
let browser: Browser;
let page: Page;

const until = (cond: () => Promise<boolean> | boolean, what: string): Promise<void> =>
  waitUntil(cond, 20000, 100).catch(() => {
    throw new Error(`timed out: ${what}`);
  });
const link = async (): Promise<string> => ((await page.getByTestId('link').count()) === 0 ? '' : page.getByTestId('link').innerText());

test.before(async () => {
  s = await startServer({ config: { server: { apiKey: OLD } } });
  browser = await launch();
  page = (await open(browser, `${s.base}/`)).page;
  await ready(page);
  await page.getByLabel('API key').fill(OLD);
  await page.getByRole('button', { name: 'Connect' }).click();
  await loaded(page);
  await until(async () => (await link()) === 'live', 'events socket live with the first key');
});
test.after(async () => {
  await browser?.close();
  await s.cleanup();
});

test('a replaced key brings the key prompt back; the new key gets the page live again', async () => {
  await editConfig(s, (c) => void (c.server.apiKey = NEW));
  await page.getByLabel('API key').waitFor({ timeout: 20000 });
  await page.getByLabel('API key').fill(NEW);
  await page.getByRole('button', { name: 'Connect' }).click();
  await loaded(page);
  await until(async () => (await link()) === 'live', 'events socket live with the new key');
});

test('a removed key: the page reconnects by itself and never asks', async () => {
  let asked = false;
  await editConfig(s, (c) => void delete c.server.apiKey);
  // The socket closes (4401 for the change) and the page reconnects without a prompt.
  const deadline = Date.now() + 20000;
  let sawReconnect = false;
  while (Date.now() < deadline) {
    if ((await page.locator('#api-key').count()) > 0) asked = true;
    const l = await link();
    if (l !== 'live') sawReconnect = true;
    if (sawReconnect && l === 'live') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.not.ok(asked, 'the page asked for a key the server no longer needs');
  await until(async () => (await link()) === 'live', 'events socket live without a key');
});

test.run();
