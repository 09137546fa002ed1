#!/usr/bin/env node
// The vjd command line: serve, license activate|deactivate|status, status.
import { parseArgs } from 'node:util';
import { request } from 'node:http';
import { loadConfig, ConfigError, type Overrides } from './config/load.js';
import { activateCommunity, activateFromFile, deactivate, readLicense, describeLicense } from './license/store.js';
import { packageVersion } from './app/version.js';
import { readStatusFile } from './app/status-file.js';
import { statusNotes } from './app/status-lines.js';
import { pidAlive } from './util/pid-alive.js';

const USAGE = `usage:
  vjd serve [--config FILE] [--host H] [--port N] [--api-key K] [--data-dir D]
  vjd license activate --community [--licensee NAME] [--if-missing] [--config FILE] [--data-dir D]
  vjd license activate --file F [--config FILE] [--data-dir D]
  vjd license deactivate [--config FILE] [--data-dir D]
  vjd license status [--config FILE] [--data-dir D]
  vjd status [--json] [--config FILE] [--data-dir D]
  vjd --version`;

const OPTIONS = {
  config: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'api-key': { type: 'string' },
  'data-dir': { type: 'string' },
  community: { type: 'boolean' },
  licensee: { type: 'string' },
  'if-missing': { type: 'boolean' },
  file: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function overrides(v: Values): Overrides {
  const o: Overrides = {};
  if (v.config !== undefined) o.config = v.config;
  if (v.host !== undefined) o.host = v.host;
  if (v.port !== undefined) o.port = v.port;
  if (v['api-key'] !== undefined) o.apiKey = v['api-key'];
  if (v['data-dir'] !== undefined) o.dataDir = v['data-dir'];
  return o;
}

function fail(message: string, code = 2): never {
  process.stderr.write(`vjd: ${message}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${await packageVersion()}\n`);
    return 0;
  }
  const [cmd, sub] = positionals;
  if (values.help || cmd === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return cmd === undefined && !values.help ? 2 : 0;
  }
  if (cmd === 'serve') {
    const { serve } = await import('./app/serve.js');
    await serve(overrides(values));
    return -1; // keeps running
  }
  // These commands never bind server.host, so a name that does not resolve right now must not stop them.
  // Nor do they open OSC: a key beside a remote osc.host is the running server's matter (it moves OSC to loopback).
  const loaded = await loadConfig(overrides(values), process.env, { resolveHost: false, oscRemote: 'loopback' }).catch((err: unknown) => {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  });
  const licensePath = loaded.paths.licenseFile;
  const trusted = loaded.config.license.trustedKeys;

  if (cmd === 'license') {
    if (sub === 'activate') {
      if (values.community && values.file) fail('use either --community or --file, not both');
      if (values.community) {
        if (values['if-missing']) {
          const existing = await readLicense(licensePath, trusted);
          if (existing.valid || !/^no license file/.test(existing.reason)) {
            process.stdout.write(`license already present: ${describeLicense(existing)}\n`);
            return 0;
          }
        }
        const lic = await activateCommunity(licensePath, values.licensee ?? 'community user');
        process.stdout.write(`activated community license for ${lic.licensee} at ${licensePath}\n`);
        return 0;
      }
      if (values.file) {
        const check = await activateFromFile(values.file, licensePath, trusted);
        if (!check.valid) fail(`license not activated: ${check.reason}`, 1);
        process.stdout.write(`activated ${describeLicense(check)} at ${licensePath}\n`);
        return 0;
      }
      fail(`license activate needs --community or --file F\n${USAGE}`);
    }
    if (sub === 'deactivate') {
      const removed = await deactivate(licensePath);
      process.stdout.write(removed ? `license removed from ${licensePath}\n` : `no license at ${licensePath}\n`);
      return 0;
    }
    if (sub === 'status') {
      const check = await readLicense(licensePath, trusted);
      process.stdout.write(`${describeLicense(check)}\n`);
      return check.valid ? 0 : 1;
    }
    fail(`unknown license command ${JSON.stringify(sub ?? '')}\n${USAGE}`);
  }

  if (cmd === 'status') {
    const file = await readStatusFile(loaded.paths.runDir);
    const pid = typeof file?.pid === 'number' ? file.pid : null;
    const alive = pid !== null && pidAlive(pid);
    // The running server's own answer wins over the file, which is written just after each transition.
    const live = alive && file && Number(file.port) > 0 ? await httpStatus(String(file.host), Number(file.port)) : null;
    const state = live && typeof live.status === 'string' ? live.status : alive && file ? String(file.state) : 'Server Disabled';
    // A running server may still explain itself (a wanted address it cannot bind yet while the old one serves).
    const reason = live
      ? typeof live.reason === 'string'
        ? live.reason
        : null
      : alive && file
        ? (file.reason as string | null)
        : 'vjd is not running';
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ state, reason, pid: alive ? pid : null, file: alive ? file : null, live })}\n`);
    } else {
      process.stdout.write(`${state}${reason ? ` (${reason})` : ''}\n`);
      if (alive && file) process.stdout.write(`pid ${pid}, ${file.host}:${file.port}\n`);
      if (live) process.stdout.write(`version ${String(live.version)}, uptime ${String(live.uptimeSeconds)} s\n`);
      if (live) for (const note of statusNotes(live)) process.stdout.write(`${note}\n`);
    }
    return state === 'Server Running' ? 0 : 3;
  }
  fail(`unknown command ${JSON.stringify(cmd)}\n${USAGE}`);
}

function httpStatus(host: string, port: number): Promise<Record<string, unknown> | null> {
  const h = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return new Promise((resolve) => {
    const req = request({ host: h, port, path: '/api/v1/status', timeout: 1000 }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (data += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(data) as Record<string, unknown>);
        } catch {
          resolve(null);
        }
      });
    });
    // Settle exactly once whatever happens: a peer that accepts and never answers must not hang the CLI.
    req.on('error', () => resolve(null));
    req.on('close', () => resolve(null));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`vjd: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
