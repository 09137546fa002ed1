// Tests for the on-disk license store: reading, activation, deactivation and one-line descriptions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signLicense } from '../../src/license/license.js';
import { activateCommunity, activateFromFile, deactivate, describeLicense, readLicense } from '../../src/license/store.js';

const root = await mkdtemp(join(tmpdir(), 'vjd-license-store-'));
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const trusted = [publicKey.export({ format: 'der', type: 'spki' }).toString('base64')];
let n = 0;
const fresh = (): string => join(root, `case-${++n}`);

test.after(async () => {
  await rm(root, { recursive: true, force: true });
});

test('missing file gives a reason with the path', async () => {
  const path = join(fresh(), 'license.json');
  const check = await readLicense(path, trusted);
  assert.equal(check, { valid: false, reason: `no license file at ${path}` });
  assert.is(describeLicense(check), `no valid license: no license file at ${path}`);
});

test('non-JSON file reason names the file', async () => {
  const dir = fresh();
  await mkdir(dir);
  const path = join(dir, 'license.json');
  await writeFile(path, '{"tier": "community",');
  const check = await readLicense(path, trusted);
  assert.is(check.valid, false);
  if (!check.valid) assert.ok(check.reason.includes(path), check.reason);
});

test('directory and oversized files are refused without parsing', async () => {
  const dir = fresh();
  await mkdir(dir);
  const asDir = await readLicense(dir, trusted);
  assert.ok(!asDir.valid && asDir.reason.includes(dir));
  const big = join(dir, 'big.json');
  await writeFile(big, JSON.stringify({ tier: 'community', licensee: 'x'.repeat(70 * 1024), issuedAt: '2026-01-01' }));
  const check = await readLicense(big, trusted);
  assert.ok(!check.valid && /64 KiB/.test(check.reason) && check.reason.includes(big));
});

test('activateCommunity writes a readable valid file, creating the directory', async () => {
  const path = join(fresh(), 'nested', 'license.json');
  const lic = await activateCommunity(path);
  assert.is(lic.tier, 'community');
  assert.is(lic.licensee, 'community user');
  const check = await readLicense(path, []);
  assert.ok(check.valid);
  if (!check.valid) return;
  assert.is(check.effectCeiling, 8);
  assert.equal(check.license, lic);
  assert.is(describeLicense(check), 'community license for community user, effect ceiling 8, no expiry');
  const refused = await activateCommunity(join(fresh(), 'license.json'), '').then(
    () => null,
    (err: Error) => err,
  );
  assert.match(refused?.message ?? 'no error thrown', /licensee/);
});

test('activateFromFile refuses an invalid license and keeps the existing one', async () => {
  const dir = fresh();
  const path = join(dir, 'license.json');
  await activateCommunity(path, 'Old Owner');
  const before = await readFile(path, 'utf8');
  const forged = {
    ...signLicense({ tier: 'studio', licensee: 'ACME', issuedAt: '2026-01-01T00:00:00Z' }, privateKey),
    licensee: 'Mallory',
  };
  const src = join(dir, 'forged.json');
  await writeFile(src, JSON.stringify(forged));
  const check = await activateFromFile(src, path, trusted);
  assert.equal(check, { valid: false, reason: 'license signature does not match any trusted key' });
  assert.is(await readFile(path, 'utf8'), before);
  const missing = await activateFromFile(join(dir, 'nope.json'), path, trusted);
  assert.is(missing.valid, false);
  assert.is(await readFile(path, 'utf8'), before);
  assert.equal((await readdir(dir)).sort(), ['forged.json', 'license.json']);
});

test('activateFromFile installs a valid pro license', async () => {
  const dir = fresh();
  await mkdir(dir);
  const lic = signLicense(
    { tier: 'pro', licensee: 'ACME Visuals', issuedAt: '2026-01-01T00:00:00.000Z', expiresAt: '2099-01-01T00:00:00.000Z' },
    privateKey,
  );
  const src = join(dir, 'from-vendor.json');
  await writeFile(src, JSON.stringify(lic, null, 2));
  const path = join(dir, 'data', 'license.json');
  const check = await activateFromFile(src, path, trusted);
  assert.ok(check.valid);
  const installed = await readLicense(path, trusted);
  assert.ok(installed.valid);
  if (!installed.valid) return;
  assert.is(installed.tier, 'pro');
  assert.is(installed.effectCeiling, 32);
  assert.equal(installed.license, lic);
  assert.is(describeLicense(installed), 'pro license for ACME Visuals, effect ceiling 32, expires 2099-01-01T00:00:00.000Z');
  assert.is((await readLicense(path, [])).valid, false);
});

test('deactivate removes the file and reports false the second time', async () => {
  const path = join(fresh(), 'license.json');
  await activateCommunity(path);
  assert.is(await deactivate(path), true);
  assert.is((await readLicense(path, [])).valid, false);
  assert.is(await deactivate(path), false);
});

test('describeLicense stays on one line', () => {
  const line = describeLicense({ valid: false, reason: 'bad\nthing\u2028here' });
  assert.is(line, 'no valid license: bad thing here');
});

test.run();
