// /docs in a real browser (Debian Chromium via playwright-core): Swagger UI renders every operation
// from /openapi.yaml and nothing is fetched from another host.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

const CHROMIUM = process.env.VJD_CHROMIUM ?? '/usr/bin/chromium';
let s: TestServer;

test.before(async () => {
  s = await startServer({ config: { server: { apiKey: 'docs-test-key' } } });
});
test.after(async () => {
  await s.cleanup();
});

test('chromium is installed (npm test installs it)', () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} missing`);
});

test('/docs renders the operations without a key and loads nothing from elsewhere', async () => {
  const profile = await tempDir('vjd-chromium-');
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await ctx.newPage();
    const foreign: string[] = [];
    const failed: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(s.base) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${s.base}/api/v1/docs`, { waitUntil: 'load' });
    await page.waitForSelector('.opblock', { timeout: 30000 });
    const ops = await page.locator('.opblock').count();
    assert.ok(ops >= 6, `rendered ${ops} operations`);
    const title = await page.locator('.title').first().innerText();
    assert.match(title, /vjd/);
    assert.ok(await page.locator('.btn.authorize').count() > 0, 'an Authorize button for the API key');
    assert.equal(foreign, []);
    assert.equal(failed, []);
  } finally {
    await ctx.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test.run();
