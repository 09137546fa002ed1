// License gate over real sockets: no valid license means no port; activate/deactivate while running
// start and stop the listener; paid tiers need a trusted Ed25519 signature; ceilings per tier, enforced by add;
// an expiry passing while running closes the port, and a license.file changed live is the file watched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, req, runCli, waitUntil, editConfig, type TestServer, refused } from '../helpers/server.js';
import { signLicense } from '../../src/license/license.js';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const trusted = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
const other = generateKeyPairSync('ed25519');

async function answers(s: TestServer): Promise<boolean> {
  try {
    return (await req('GET', `${s.base}/api/v1/status`, { timeoutMs: 1000 })).status === 200;
  } catch {
    return false;
  }
}

test('without a license: no port is opened and the log says why; vjd status says so', async () => {
  const s = await startServer({ license: 'none', waitFor: 'log:no valid license' });
  try {
    assert.match(s.logs(), /no license file at/);
    assert.ok(await refused(s.port), 'connection refused');
    const st = await runCli(['status', '--data-dir', s.dataDir, '--config', s.configFile!]);
    assert.is(st.code, 3);
    assert.match(st.stdout, /Server Disabled \(no valid license/);
  } finally {
    await s.cleanup();
  }
});

test('activating while running starts the server; deactivating stops it', async () => {
  const s = await startServer({ license: 'none', waitFor: 'log:no valid license' });
  try {
    const a = await runCli(['license', 'activate', '--community', '--data-dir', s.dataDir]);
    assert.is(a.code, 0, a.stderr);
    await waitUntil(() => answers(s), 10000);
    const st = await runCli(['status', '--data-dir', s.dataDir, '--config', s.configFile!]);
    assert.is(st.code, 0);
    assert.match(st.stdout, /^Server Running/);
    const ls = await runCli(['license', 'status', '--data-dir', s.dataDir]);
    assert.is(ls.code, 0);
    assert.match(ls.stdout, /community/);
    const d = await runCli(['license', 'deactivate', '--data-dir', s.dataDir]);
    assert.is(d.code, 0);
    await waitUntil(() => refused(s.port), 10000);
    const ls2 = await runCli(['license', 'status', '--data-dir', s.dataDir]);
    assert.is(ls2.code, 1);
  } finally {
    await s.cleanup();
  }
});

test('pro and studio licenses: signed by a trusted key, ceilings 32 and 128', async () => {
  for (const [tier, ceiling] of [
    ['pro', 32],
    ['studio', 128],
  ] as const) {
    const s = await startServer({ license: 'none', config: { license: { trustedKeys: [trusted] } }, waitFor: 'log:no valid license' });
    try {
      const lic = signLicense(
        { tier, licensee: 'Test Venue', issuedAt: new Date().toISOString(), expiresAt: '2099-01-01T00:00:00Z' },
        privateKey,
      );
      const f = join(s.dataDir, 'incoming.json');
      await writeFile(f, JSON.stringify(lic));
      const a = await runCli(['license', 'activate', '--file', f, '--data-dir', s.dataDir, '--config', s.configFile!]);
      assert.is(a.code, 0, a.stderr);
      await waitUntil(() => answers(s), 10000);
      const caps = (await req('GET', `${s.base}/api/v1/capabilities`)).json();
      assert.is(caps.license.tier, tier);
      assert.is(caps.license.licensee, 'Test Venue');
      assert.is(caps.limits.effectCeiling, ceiling);
      // The ceiling is what POST /effects/add enforces: `ceiling` effects fit, the next one is refused.
      for (let i = 0; i < ceiling; i++) {
        const r = await req('POST', `${s.base}/api/v1/effects/add`, { body: { type: i % 2 ? 'invert' : 'posterize' } });
        assert.is(r.status, 200, r.text);
      }
      const over = await req('POST', `${s.base}/api/v1/effects/add`, { body: { type: 'invert' } });
      assert.is(over.status, 403);
      assert.is(over.json().code, 'EFFECT_LIMIT_REACHED');
      assert.is((await req('GET', `${s.base}/api/v1/effects`)).json().count, ceiling);
    } finally {
      await s.cleanup();
    }
  }
});

test('a license signed by an untrusted key, tampered, or expired is refused', async () => {
  const s = await startServer({ license: 'none', config: { license: { trustedKeys: [trusted] } }, waitFor: 'log:no valid license' });
  try {
    const now = new Date().toISOString();
    const untrusted = signLicense({ tier: 'pro', licensee: 'X', issuedAt: now }, other.privateKey);
    const tampered = { ...signLicense({ tier: 'pro', licensee: 'X', issuedAt: now }, privateKey), tier: 'studio' };
    const expired = signLicense(
      { tier: 'pro', licensee: 'X', issuedAt: '2020-01-01T00:00:00Z', expiresAt: '2021-01-01T00:00:00Z' },
      privateKey,
    );
    for (const [name, lic, why] of [
      ['untrusted', untrusted, /does not match/],
      ['tampered', tampered, /does not match/],
      ['expired', expired, /expired/],
    ] as const) {
      const f = join(s.dataDir, `${name}.json`);
      await writeFile(f, JSON.stringify(lic));
      const a = await runCli(['license', 'activate', '--file', f, '--data-dir', s.dataDir, '--config', s.configFile!]);
      assert.is(a.code, 1, name);
      assert.match(a.stderr, why);
    }
    // Written straight into place (bypassing activate), an expired license still opens no port.
    await writeFile(join(s.dataDir, 'license.json'), JSON.stringify(expired));
    await s.waitForLog('license expired');
    assert.ok(await refused(s.port));
  } finally {
    await s.cleanup();
  }
});

test('a license that expires while the server runs closes the port at its expiry', async () => {
  const s = await startServer({ license: 'none', config: { license: { trustedKeys: [trusted] } }, waitFor: 'log:no valid license' });
  try {
    // Far enough ahead that a loaded machine reads it while still valid; nothing changes the file afterwards,
    // so only the timer set at the expiry can close the port.
    const expiresAt = new Date(Date.now() + 30_000).toISOString();
    const lic = signLicense({ tier: 'pro', licensee: 'Short Run', issuedAt: new Date().toISOString(), expiresAt }, privateKey);
    await writeFile(join(s.dataDir, 'license.json'), JSON.stringify(lic));
    await waitUntil(() => answers(s), 20000);
    assert.is((await req('GET', `${s.base}/api/v1/capabilities`)).json().license.tier, 'pro');
    await waitUntil(() => refused(s.port), 90000, 250);
    await s.waitForLog('license expired', 15000);
  } finally {
    await s.cleanup();
  }
});

test('a license.file changed in the config file is read and watched from then on', async () => {
  const s = await startServer({ license: 'none', waitFor: 'log:no valid license' });
  try {
    const moved = join(s.dataDir, 'elsewhere', 'license.json');
    await editConfig(s, (c) => {
      c.license = { file: moved };
    });
    // The reload reads the new file at once (still missing); activating it afterwards is seen only by its watch.
    await s.waitForLog(`no license file at ${moved}`, 30000);
    assert.ok(await refused(s.port));
    const a = await runCli(['license', 'activate', '--community', '--data-dir', s.dataDir, '--config', s.configFile!]);
    assert.is(a.code, 0, a.stderr);
    assert.match(a.stdout, /elsewhere/);
    await waitUntil(() => answers(s), 20000);
    assert.is((await req('GET', `${s.base}/api/v1/capabilities`)).json().license.tier, 'community');
  } finally {
    await s.cleanup();
  }
});

test.run();
