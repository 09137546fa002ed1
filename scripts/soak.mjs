#!/usr/bin/env node
// Bounded soak/load run of vjd (500 pollers, VJD_SOAK_SECONDS, default 60, min 10); writes bench/results/soak.{md,json}; exit 1 on failure.
import { mkdir, writeFile } from 'node:fs/promises';
import { runSoak, soakMarkdown, soakVerdict } from '../dist/bench/soak-run.js';

const raw = Number(process.env.VJD_SOAK_SECONDS ?? 60);
const seconds = Math.max(10, Number.isFinite(raw) ? Math.round(raw) : 60);
const pollers = Math.max(1, Number(process.env.VJD_SOAK_POLLERS ?? 500) || 500);
// Effect edits under way at once (default: no limit, so the chain can reach the license ceiling).
const editors = process.env.VJD_SOAK_EDITORS ? Math.max(1, Number(process.env.VJD_SOAK_EDITORS) || 1) : Infinity;
process.stderr.write(`soak: ${pollers} pollers for ${seconds} s\n`);
const result = await runSoak({ seconds, pollers, editors, log: (line) => process.stderr.write(`soak: ${line}\n`) });
const verdict = soakVerdict(result);
const md = soakMarkdown(result);
const dir = new URL('../bench/results/', import.meta.url);
await mkdir(dir, { recursive: true });
await writeFile(new URL('soak.md', dir), `${md}\n`);
await writeFile(new URL('soak.json', dir), `${JSON.stringify({ ...result, verdict }, null, 2)}\n`);
process.stdout.write(`${md}\n`);
if (!verdict.ok) {
  process.stderr.write(`soak failed: ${verdict.failures.join('; ')}\n`);
  process.exitCode = 1;
}
