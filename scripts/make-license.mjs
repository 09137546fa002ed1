// Vendor tool for vjd licenses: make a signing key pair, sign pro/studio license files (needs `npm run build`).
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { signLicense } from '../dist/src/license/license.js';

const USAGE = `usage:
  node scripts/make-license.mjs keygen <dir>
      writes <dir>/private.pem and prints the public key for license.trustedKeys
  node scripts/make-license.mjs sign --key <private.pem> --tier pro|studio|community --licensee NAME [--expires ISO] [--issued ISO]
      prints the signed license JSON on stdout`;

async function keygen(args) {
  const [dir, ...extra] = args;
  if (!dir || extra.length > 0) throw new UsageError('keygen takes exactly one directory');
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  await mkdir(dir, { recursive: true });
  // 'wx' so a second keygen can never overwrite the key that signed licenses already in the field.
  await writeFile(join(dir, 'private.pem'), privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  process.stdout.write(`${publicKey.export({ format: 'der', type: 'spki' }).toString('base64')}\n`);
}

async function signCommand(args) {
  const { values, positionals } = parseArgs({
    args,
    options: {
      key: { type: 'string' },
      tier: { type: 'string' },
      licensee: { type: 'string' },
      expires: { type: 'string' },
      issued: { type: 'string' },
    },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  if (!values.key || !values.tier || values.licensee === undefined) throw new UsageError('sign needs --key, --tier and --licensee');
  const privateKey = createPrivateKey(await readFile(values.key));
  const fields = { tier: values.tier, licensee: values.licensee, issuedAt: values.issued ?? new Date().toISOString() };
  if (values.expires !== undefined) fields.expiresAt = values.expires;
  const license = signLicense(fields, privateKey);
  process.stdout.write(`${JSON.stringify(license, null, 2)}\n`);
}

class UsageError extends Error {}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'keygen') await keygen(rest);
  else if (command === 'sign') await signCommand(rest);
  else throw new UsageError(command ? `unknown command ${command}` : 'no command given');
} catch (err) {
  const usage = err instanceof UsageError || err?.code?.startsWith?.('ERR_PARSE_ARGS');
  process.stderr.write(`make-license: ${err instanceof Error ? err.message : String(err)}\n${usage ? `${USAGE}\n` : ''}`);
  process.exitCode = usage ? 2 : 1;
}
