// /docs in a real browser (Debian Chromium via playwright-core): Swagger UI renders every operation
// from /openapi.yaml under the page's Content-Security-Policy with no violation, and nothing is fetched from
// another host; the page carries the control page's security headers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { req, startServer, tempDir, type TestServer } from '../helpers/server.js';

const CHROMIUM = process.env.VJD_CHROMIUM ?? '/usr/bin/chromium';
let s: TestServer;

test.before(async () => {
  s = await startServer({ config: { server: { apiKey: 'docs-test-key' } } });
});
test.after(async () => {
  await s.cleanup();
});

const SECURITY = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy'];

test("/docs has the control page's security headers: a CSP that forbids framing, inline scripts and eval", async () => {
  const docs = await req('GET', `${s.base}/api/v1/docs`);
  const ui = await req('GET', `${s.base}/ui/`);
  assert.is(docs.status, 200);
  for (const h of SECURITY) {
    assert.ok(typeof docs.headers[h] === 'string' && docs.headers[h] !== '', `docs ${h}`);
    assert.ok(typeof ui.headers[h] === 'string' && ui.headers[h] !== '', `ui ${h}`);
  }
  const csp = String(docs.headers['content-security-policy']);
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k!, v] as const),
  );
  assert.equal(directives.get('frame-ancestors'), ["'none'"]);
  assert.equal(directives.get('base-uri'), ["'none'"]);
  assert.equal(directives.get('object-src'), ["'none'"]);
  assert.equal(directives.get('default-src'), ["'self'"]);
  assert.equal(directives.get('script-src'), ["'self'"], 'no inline script, no eval');
  assert.equal(directives.get('connect-src'), ["'self'"]);
  assert.not.match(csp, /\*|https?:|unsafe-eval/);
  // The same framing and sniffing rules as the control page.
  const uiCsp = String(ui.headers['content-security-policy']);
  for (const d of ['frame-ancestors', 'base-uri', 'object-src', 'script-src', 'connect-src', 'default-src']) {
    assert.ok(uiCsp.includes(`${d} ${directives.get(d)!.join(' ')}`), `ui and docs share ${d}`);
  }
  assert.is(docs.headers['x-content-type-options'], 'nosniff');
  assert.is(docs.headers['x-frame-options'], 'DENY');
  for (const asset of ['swagger-ui-bundle.js', 'swagger-init.js', 'swagger-ui.css']) {
    assert.is((await req('GET', `${s.base}/api/v1/docs/${asset}`)).headers['x-content-type-options'], 'nosniff', asset);
  }
  assert.is((await req('GET', `${s.base}/api/v1/openapi.yaml`)).headers['x-content-type-options'], 'nosniff');
});

test('chromium is installed (npm test installs it)', () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} missing`);
});

test('/docs renders the operations without a key and loads nothing from elsewhere', async () => {
  const profile = await tempDir('vjd-chromium-');
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
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
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    // Browser-side code as text: this package compiles without the DOM types.
    await page.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => {
      (window.cspViolations ??= []).push(e.violatedDirective + ' ' + e.blockedURI);
    });`);
    await page.goto(`${s.base}/api/v1/docs`, { waitUntil: 'load' });
    await page.waitForSelector('.opblock', { timeout: 30000 });
    // Swagger UI virtualises a long operation list (only what is near the viewport is in the DOM): count the
    // operations it holds, then scroll to the end and wait for the last tag to be drawn.
    const ops = await page.evaluate(() => {
      let n = 0;
      (globalThis as any).ui.specSelectors.taggedOperations().forEach((t: any) => {
        n += t.get('operations').size;
      });
      return n;
    });
    assert.ok(ops >= 6, `Swagger UI holds ${ops} operations`);
    let lastTag = 0;
    for (const end = Date.now() + 30000; Date.now() < end && lastTag === 0; await new Promise((r) => setTimeout(r, 100))) {
      await page.mouse.wheel(0, 4000);
      lastTag = await page.locator('#operations-tag-docs').count();
    }
    assert.is(lastTag, 1, 'the last tag (docs) is drawn after scrolling to the end');
    const title = await page.locator('.title').first().innerText();
    assert.match(title, /vjd/);
    assert.ok((await page.locator('.btn.authorize').count()) > 0, 'an Authorize button for the API key');
    assert.equal(foreign, []);
    assert.equal(failed, []);
    assert.equal(violations, [], 'Swagger UI ran under the policy without a violation');
    assert.equal(await page.evaluate('window.cspViolations ?? []'), []);
    // The policy is in force: an injected inline script does not run, and is reported.
    const ran = await page.evaluate(`(async () => {
      const el = document.createElement('script');
      el.textContent = 'window.injected = true';
      document.body.appendChild(el);
      // The report is an event queued after the refusal: wait for it (generously, the machine may be loaded).
      for (let i = 0; i < 200 && (window.cspViolations ?? []).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      return { injected: window.injected === true, reported: (window.cspViolations ?? []).length };
    })()`);
    assert.equal(ran, { injected: false, reported: 1 });
  } finally {
    await ctx.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test.run();
