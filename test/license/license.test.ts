// Tests for license verification: canonical JSON, signatures, tiers, dates and hostile input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { canonicalJson, signLicense, verifyLicense, EFFECT_CEILING, type LicenseCheck, type Tier } from '../../src/license/license.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

function keyPair(): { privateKey: KeyObject; publicB64: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicB64: publicKey.export({ format: 'der', type: 'spki' }).toString('base64') };
}

const vendor = keyPair();
const stranger = keyPair();

function signed(tier: Tier, extra: { expiresAt?: string; issuedAt?: string } = {}) {
  return signLicense({ tier, licensee: 'ACME Visuals', issuedAt: '2026-01-01T00:00:00.000Z', ...extra }, vendor.privateKey);
}

function reasonOf(check: LicenseCheck): string {
  if (check.valid) assert.unreachable(`expected an invalid license, got ${check.tier}`);
  return check.valid ? '' : check.reason;
}

test('canonicalJson sorts keys at every depth and drops whitespace', () => {
  assert.is(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } }), '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  assert.is(canonicalJson({ a: undefined, b: null }), '{"b":null}');
  assert.is(canonicalJson([undefined, 'é']), '[null,"é"]');
  assert.is(canonicalJson('x'), '"x"');
  assert.is(canonicalJson(undefined), 'null');
});

test('community license is valid without a signature', () => {
  const check = verifyLicense({ tier: 'community', licensee: 'someone', issuedAt: '2026-05-01T00:00:00Z' }, [], NOW);
  assert.ok(check.valid);
  if (!check.valid) return;
  assert.is(check.tier, 'community');
  assert.is(check.effectCeiling, 8);
  assert.is(check.expiresAt, null);
});

test('a signature on a community license is ignored', () => {
  const check = verifyLicense({ tier: 'community', licensee: 'someone', issuedAt: '2026-05-01', signature: 'junk' }, [], NOW);
  assert.ok(check.valid);
  if (check.valid) assert.is(check.license.signature, undefined);
});

test('pro and studio licenses verify with a good signature and report their ceilings', () => {
  assert.equal(EFFECT_CEILING, { community: 8, pro: 32, studio: 128 });
  for (const [tier, ceiling] of [
    ['pro', 32],
    ['studio', 128],
  ] as const) {
    const check = verifyLicense(signed(tier, { expiresAt: '2027-01-01T00:00:00Z' }), [vendor.publicB64], NOW);
    assert.ok(check.valid, tier);
    if (!check.valid) return;
    assert.is(check.tier, tier);
    assert.is(check.effectCeiling, ceiling);
    assert.is(check.expiresAt?.toISOString(), '2027-01-01T00:00:00.000Z');
  }
});

test('signature survives a JSON round trip with reordered keys and whitespace', () => {
  const lic = signed('pro');
  const reordered = JSON.parse(
    JSON.stringify({ signature: lic.signature, issuedAt: lic.issuedAt, licensee: lic.licensee, tier: lic.tier }, null, 4),
  );
  assert.ok(verifyLicense(reordered, [vendor.publicB64], NOW).valid);
});

test('tampered fields invalidate the signature', () => {
  const lic = signed('pro', { expiresAt: '2027-01-01T00:00:00.000Z' });
  const tampered = [
    { ...lic, tier: 'studio' },
    { ...lic, licensee: 'ACME Visual' },
    { ...lic, expiresAt: '2099-01-01T00:00:00.000Z' },
    { ...lic, issuedAt: '2026-01-02T00:00:00.000Z' },
  ];
  const { expiresAt: _dropped, ...withoutExpiry } = lic;
  tampered.push(withoutExpiry);
  for (const t of tampered) {
    assert.is(reasonOf(verifyLicense(t, [vendor.publicB64], NOW)), 'license signature does not match any trusted key');
  }
});

test('a signature from an untrusted key is rejected', () => {
  const lic = signLicense({ tier: 'studio', licensee: 'Mallory', issuedAt: '2026-01-01T00:00:00Z' }, stranger.privateKey);
  assert.is(reasonOf(verifyLicense(lic, [vendor.publicB64], NOW)), 'license signature does not match any trusted key');
});

test('malformed trusted keys are skipped, not fatal', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const keys = ['not base64 at all!', '', 'AAAA', rsa, 42 as unknown as string, vendor.publicB64];
  assert.ok(verifyLicense(signed('pro'), keys, NOW).valid);
  assert.match(reasonOf(verifyLicense(signed('pro'), keys.slice(0, 5), NOW)), /trusted keys/);
});

test('no trusted keys for a pro license', () => {
  assert.is(reasonOf(verifyLicense(signed('pro'), [], NOW)), 'no trusted keys configured for a pro license');
  assert.is(reasonOf(verifyLicense(signed('studio'), null as unknown as string[], NOW)), 'no trusted keys configured for a studio license');
});

test('missing or malformed signature', () => {
  const { signature: _sig, ...unsigned } = signed('pro');
  assert.is(reasonOf(verifyLicense(unsigned, [vendor.publicB64], NOW)), 'pro license has no signature');
  for (const bad of ['', 'abc', '!!!!', 'A'.repeat(88), `${signed('pro').signature}AAAA`]) {
    assert.match(reasonOf(verifyLicense({ ...unsigned, signature: bad }, [vendor.publicB64], NOW)), /signature/);
  }
  assert.is(reasonOf(verifyLicense({ ...unsigned, signature: 7 }, [vendor.publicB64], NOW)), 'license signature must be a string');
});

test('expired license names the expiry time', () => {
  const lic = signed('pro', { expiresAt: '2026-05-01T00:00:00+02:00' });
  assert.is(reasonOf(verifyLicense(lic, [vendor.publicB64], NOW)), 'license expired at 2026-04-30T22:00:00.000Z');
  const atNow = signed('pro', { expiresAt: NOW.toISOString() });
  assert.match(reasonOf(verifyLicense(atNow, [vendor.publicB64], NOW)), /expired/);
  assert.ok(verifyLicense(atNow, [vendor.publicB64], new Date(NOW.getTime() - 1)).valid);
});

test('issuedAt more than a day in the future is rejected', () => {
  const soon = signed('pro', { issuedAt: new Date(NOW.getTime() + DAY - 1000).toISOString() });
  assert.ok(verifyLicense(soon, [vendor.publicB64], NOW).valid);
  const later = signed('pro', { issuedAt: new Date(NOW.getTime() + DAY + 1000).toISOString() });
  assert.match(reasonOf(verifyLicense(later, [vendor.publicB64], NOW)), /future/);
});

test('unknown keys are rejected by name', () => {
  const reason = reasonOf(verifyLicense({ tier: 'community', licensee: 'x', issuedAt: '2026-01-01', seats: 5 }, [], NOW));
  assert.is(reason, 'license has unknown key "seats"');
  const proto = JSON.parse('{"tier":"community","licensee":"x","issuedAt":"2026-01-01","__proto__":{"tier":"studio"}}');
  assert.match(reasonOf(verifyLicense(proto, [], NOW)), /unknown key "__proto__"/);
  const long = reasonOf(verifyLicense({ tier: 'community', licensee: 'x', issuedAt: '2026-01-01', ['k'.repeat(100_000)]: 1 }, [], NOW));
  assert.ok(long.length < 200);
});

test('wrong types and values are rejected with a reason', () => {
  const base = { tier: 'community', licensee: 'x', issuedAt: '2026-01-01T00:00:00Z' };
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ ...base, tier: 'enterprise' }, /tier/],
    [{ ...base, tier: 1 }, /tier/],
    [{ licensee: 'x', issuedAt: base.issuedAt }, /tier/],
    [{ ...base, licensee: '' }, /licensee/],
    [{ ...base, licensee: '   ' }, /licensee/],
    [{ ...base, licensee: ['x'] }, /licensee/],
    [{ ...base, licensee: 'x'.repeat(257) }, /licensee.*256/],
    [{ tier: 'community', licensee: 'x' }, /issuedAt/],
    [{ ...base, issuedAt: 'yesterday' }, /issuedAt/],
    [{ ...base, issuedAt: 'March 7, 2026' }, /issuedAt/],
    [{ ...base, issuedAt: '2026-02-30' }, /issuedAt/],
    [{ ...base, issuedAt: '2026-01-01T10:00:00' }, /issuedAt/],
    [{ ...base, issuedAt: '2026-01-01T25:00:00Z' }, /issuedAt/],
    [{ ...base, issuedAt: 1767225600000 }, /issuedAt/],
    [{ ...base, expiresAt: null }, /expiresAt/],
    [{ ...base, expiresAt: '2027-13-01' }, /expiresAt/],
  ];
  for (const [raw, re] of cases) assert.match(reasonOf(verifyLicense(raw, [], NOW)), re);
  assert.ok(verifyLicense({ ...base, licensee: 'x'.repeat(256), issuedAt: '2024-02-29T23:59:59.123456+05:30' }, [], NOW).valid);
});

test('garbage input never throws', () => {
  const huge = 'x'.repeat(100_000);
  const inputs: unknown[] = [
    null,
    undefined,
    0,
    -1,
    NaN,
    Infinity,
    true,
    '',
    huge,
    [],
    [1, 2],
    [{ tier: 'pro' }],
    {},
    () => 1,
    Symbol('s'),
    10n,
    { tier: huge },
    { tier: 'pro', licensee: huge, issuedAt: huge },
    { tier: 'pro', licensee: 'x', issuedAt: '2026-01-01', signature: huge },
    { tier: 'community', licensee: 'x', issuedAt: `2026-01-01T00:00:00.${'1'.repeat(100_000)}Z` },
    Object.create(null),
    new Date(),
    new Map(),
    new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('boom');
        },
      },
    ),
    {
      get tier() {
        throw new Error('boom');
      },
      licensee: 'x',
      issuedAt: '2026-01-01',
    },
  ];
  const keyLists: unknown[] = [[], [vendor.publicB64], [huge], null, 'key', [null, {}, huge]];
  for (const input of inputs) {
    for (const keys of keyLists) {
      const check = verifyLicense(input, keys as string[], NOW);
      assert.is(check.valid, false);
    }
  }
  assert.is(verifyLicense(signed('pro'), [vendor.publicB64], new Date(Number.NaN)).valid, false);
});

test('signLicense refuses fields that would never verify', () => {
  assert.throws(() => signLicense({ tier: 'pro', licensee: '', issuedAt: '2026-01-01' }, vendor.privateKey), /licensee/);
  assert.throws(() => signLicense({ tier: 'gold' as Tier, licensee: 'x', issuedAt: '2026-01-01' }, vendor.privateKey), /tier/);
});

test.run();
