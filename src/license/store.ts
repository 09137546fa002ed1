// License file on disk: read and verify it, install community or vendor-issued licenses, remove it.
import { mkdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atomicWriteFile } from '../util/atomic-write.js';
import { readRegularText, RegularFileError } from '../util/regular-file.js';
import { canonicalJson, verifyLicense, type LicenseCheck, type LicenseFile } from './license.js';

/** A real license is a few hundred bytes; anything far larger is not worth parsing. */
export const MAX_LICENSE_BYTES = 64 * 1024;

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

type Loaded = { ok: true; value: unknown } | { ok: false; reason: string };

async function loadJson(path: string): Promise<Loaded> {
  let text: string;
  try {
    // Regular files only, checked on the open handle: a pipe under the name must not hold a file thread.
    text = await readRegularText(path, MAX_LICENSE_BYTES);
  } catch (err) {
    if (err instanceof RegularFileError)
      return {
        ok: false,
        reason: err.code === 'too-large' ? `license file ${path} is larger than 64 KiB` : `license file ${path} is not a regular file`,
      };
    if (errorCode(err) === 'ENOENT') return { ok: false, reason: `no license file at ${path}` };
    return { ok: false, reason: `license file ${path} could not be read (${errorCode(err)})` };
  }
  try {
    // Editors on some platforms prepend a BOM, which JSON.parse rejects.
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch {
    return { ok: false, reason: `license file ${path} is not valid JSON` };
  }
}

export async function readLicense(path: string, trustedKeys: string[], now = new Date()): Promise<LicenseCheck> {
  const loaded = await loadJson(path);
  if (!loaded.ok) return { valid: false, reason: loaded.reason };
  return verifyLicense(loaded.value, trustedKeys, now);
}

async function install(path: string, license: LicenseFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await atomicWriteFile(path, `${canonicalJson(license)}\n`);
}

/** Installs the free tier; throws if the licensee name is unusable. */
export async function activateCommunity(path: string, licensee = 'community user'): Promise<LicenseFile> {
  const check = verifyLicense({ tier: 'community', licensee, issuedAt: new Date().toISOString() }, [], new Date());
  if (!check.valid) throw new Error(check.reason);
  await install(path, check.license);
  return check.license;
}

/** Installs a vendor-issued license only after it verifies, so a bad file never replaces a working one. */
export async function activateFromFile(src: string, path: string, trustedKeys: string[]): Promise<LicenseCheck> {
  const check = await readLicense(src, trustedKeys);
  if (check.valid) await install(path, check.license);
  return check;
}

export async function deactivate(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return false;
    throw err;
  }
}

/** One log/CLI line; control characters from the licensee or a path cannot break it across lines. */
export function describeLicense(check: LicenseCheck): string {
  const line = check.valid
    ? `${check.tier} license for ${check.license.licensee}, effect ceiling ${check.effectCeiling}, ` +
      (check.expiresAt ? `expires ${check.expiresAt.toISOString()}` : 'no expiry')
    : `no valid license: ${check.reason}`;
  return line.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');
}
