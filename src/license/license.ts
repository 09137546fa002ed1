// License validation: shape checks, Ed25519 signature verification and tier ceilings, with no I/O.
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export type Tier = 'community' | 'pro' | 'studio';

export const EFFECT_CEILING: Record<Tier, number> = { community: 8, pro: 32, studio: 128 };

export interface LicenseFile {
  tier: Tier;
  licensee: string;
  issuedAt: string;
  expiresAt?: string;
  signature?: string;
}

export type LicenseCheck =
  | { valid: true; license: LicenseFile; tier: Tier; effectCeiling: number; expiresAt: Date | null }
  | { valid: false; reason: string };

const TIERS: readonly Tier[] = ['community', 'pro', 'studio'];
const KNOWN_KEYS = new Set(['tier', 'licensee', 'issuedAt', 'expiresAt', 'signature']);
const MAX_LICENSEE = 256;
/** Clock skew allowed between the vendor's signing machine and this one. */
const ISSUE_SKEW_MS = 24 * 60 * 60 * 1000;
const ED25519_SIG_BYTES = 64;

/** JSON with object keys sorted at every depth and no whitespace, so signer and verifier hash identical bytes. */
export function canonicalJson(value: unknown): string {
  return canonical(value) ?? 'null';
}

// Mirrors JSON.stringify: undefined/functions/symbols vanish from objects and become null in arrays.
function canonical(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item) ?? 'null').join(',')}]`;
  const rec = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(rec).sort()) {
    const encoded = canonical(rec[key]);
    if (encoded !== undefined) parts.push(`${JSON.stringify(key)}:${encoded}`);
  }
  return `{${parts.join(',')}}`;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
// A time of day must carry Z or an offset: a local-time expiry would differ from machine to machine.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2})))?$/;

/** Milliseconds since the epoch, or null; Date.parse is too lenient (it rolls 2021-02-30 into March). */
export function parseIsoDate(text: unknown): number | null {
  if (typeof text !== 'string' || text.length > 40) return null;
  const m = ISO_8601.exec(text);
  if (!m) return null;
  const num = (i: number): number => Number(m[i] ?? 0);
  const [year, month, day, hour, minute, second] = [num(1), num(2), num(3), num(4), num(5), num(6)];
  if (month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = (DAYS_IN_MONTH[month - 1] ?? 0) + (month === 2 && isLeap(year) ? 1 : 0);
  if (day > daysInMonth || hour > 23 || minute > 59 || second > 59) return null;
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const oh = num(10);
    const om = num(11);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 onto 1900-1999.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, millis);
  return d.getTime() - offsetMinutes * 60_000;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function invalid(reason: string): LicenseCheck {
  return { valid: false, reason };
}

/** Keeps attacker-sized text out of reasons that end up in logs. */
function quote(text: string): string {
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
}

type Shape = { ok: true; license: LicenseFile; issuedAt: number; expiresAt: number | null } | { ok: false; reason: string };

function checkShape(raw: unknown): Shape {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, reason: 'license must be a JSON object' };
  const rec = raw as Record<string, unknown>;
  for (const key of Object.keys(rec)) {
    if (!KNOWN_KEYS.has(key)) return { ok: false, reason: `license has unknown key ${quote(key)}` };
  }
  // Only own properties count, so nothing can be smuggled in through a prototype.
  const own = (key: string): unknown => (Object.hasOwn(rec, key) ? rec[key] : undefined);

  const tier = own('tier');
  if (tier === undefined) return { ok: false, reason: 'license has no tier' };
  if (typeof tier !== 'string' || !(TIERS as readonly string[]).includes(tier)) {
    return { ok: false, reason: 'license tier must be "community", "pro" or "studio"' };
  }
  const licensee = own('licensee');
  if (typeof licensee !== 'string' || licensee.trim() === '') return { ok: false, reason: 'license licensee must be a non-empty string' };
  if (licensee.length > MAX_LICENSEE) return { ok: false, reason: `license licensee is longer than ${MAX_LICENSEE} characters` };

  const issuedText = own('issuedAt');
  if (issuedText === undefined) return { ok: false, reason: 'license has no issuedAt date' };
  const issuedAt = parseIsoDate(issuedText);
  if (issuedAt === null) return { ok: false, reason: 'license issuedAt must be an ISO-8601 date' };

  const expiresText = own('expiresAt');
  let expiresAt: number | null = null;
  if (expiresText !== undefined) {
    expiresAt = parseIsoDate(expiresText);
    if (expiresAt === null) return { ok: false, reason: 'license expiresAt must be an ISO-8601 date' };
  }
  const signature = own('signature');
  if (signature !== undefined && typeof signature !== 'string') return { ok: false, reason: 'license signature must be a string' };

  const license: LicenseFile = { tier: tier as Tier, licensee, issuedAt: issuedText as string };
  if (expiresText !== undefined) license.expiresAt = expiresText as string;
  if (signature !== undefined) license.signature = signature;
  return { ok: true, license, issuedAt, expiresAt };
}

/** The exact bytes a signature covers: every field except the signature itself. */
function signedBytes(license: LicenseFile): Buffer {
  const { signature: _signature, ...fields } = license;
  return Buffer.from(canonicalJson(fields), 'utf8');
}

function decodeSignature(text: string): Buffer | null {
  // Buffer.from(.., 'base64') skips junk characters silently; insist on the real alphabet.
  if (text.length > 128 || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === ED25519_SIG_BYTES ? bytes : null;
}

function parseTrustedKey(text: unknown): KeyObject | null {
  if (typeof text !== 'string' || text.length > 4096) return null;
  try {
    const key = createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ed25519' ? key : null;
  } catch {
    return null;
  }
}

function checkSignature(license: LicenseFile, trustedKeys: unknown): string | null {
  if (license.signature === undefined) return `${license.tier} license has no signature`;
  const configured = Array.isArray(trustedKeys) ? trustedKeys : [];
  if (configured.length === 0) return `no trusted keys configured for a ${license.tier} license`;
  const sig = decodeSignature(license.signature);
  if (!sig) return 'license signature is not a base64 Ed25519 signature';
  const keys = configured.map(parseTrustedKey).filter((k): k is KeyObject => k !== null);
  if (keys.length === 0) return 'none of the configured trusted keys is a valid Ed25519 public key';
  const data = signedBytes(license);
  for (const key of keys) {
    try {
      if (verify(null, data, key, sig)) return null;
    } catch {
      // a key that cannot verify is as good as a non-matching one
    }
  }
  return 'license signature does not match any trusted key';
}

/** Decides whether a parsed license file grants a tier; never throws, whatever the input. */
export function verifyLicense(raw: unknown, trustedKeys: string[], now: Date): LicenseCheck {
  try {
    const nowMs = now instanceof Date ? now.getTime() : Number.NaN;
    if (!Number.isFinite(nowMs)) return invalid('current time is not a valid date');
    const shape = checkShape(raw);
    if (!shape.ok) return invalid(shape.reason);
    const license = shape.license;
    if (license.tier === 'community') {
      // Community needs no proof, so an unverified signature is dropped rather than carried along.
      delete license.signature;
    } else {
      const failure = checkSignature(license, trustedKeys);
      if (failure) return invalid(failure);
    }
    if (shape.issuedAt > nowMs + ISSUE_SKEW_MS) {
      return invalid(`license is issued in the future (${new Date(shape.issuedAt).toISOString()})`);
    }
    if (shape.expiresAt !== null && shape.expiresAt <= nowMs) {
      return invalid(`license expired at ${new Date(shape.expiresAt).toISOString()}`);
    }
    return {
      valid: true,
      license,
      tier: license.tier,
      effectCeiling: EFFECT_CEILING[license.tier],
      expiresAt: shape.expiresAt === null ? null : new Date(shape.expiresAt),
    };
  } catch {
    // Hostile inputs (proxies, throwing getters) must not take the server down.
    return invalid('license could not be checked');
  }
}

/** Produces a signed license; throws when the fields would not pass verifyLicense's shape checks. */
export function signLicense(fields: Omit<LicenseFile, 'signature'>, privateKey: KeyObject): LicenseFile {
  const unsigned: Record<string, unknown> = { tier: fields.tier, licensee: fields.licensee, issuedAt: fields.issuedAt };
  if (fields.expiresAt !== undefined) unsigned.expiresAt = fields.expiresAt;
  const shape = checkShape(unsigned);
  if (!shape.ok) throw new Error(shape.reason);
  const signature = sign(null, signedBytes(shape.license), privateKey).toString('base64');
  return { ...shape.license, signature };
}
