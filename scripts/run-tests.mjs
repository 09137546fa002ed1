#!/usr/bin/env node
// Runs every compiled uvu test file (dist/test/**/*.test.js) in its own process, two at a time (VJD_TEST_JOBS),
// prints each file's output whole when it ends, and ends with the plain line `N passed, N failed` that CI reads.
// Most files wait on servers, ffmpeg and timers more than they compute, so two lanes keep both cores busy; a file
// whose first lines say `test-lane: alone` (it measures real time or loads the box itself) runs with no other.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const testDir = join(root, 'dist', 'test');
const filter = process.argv.slice(2);
const FILE_TIMEOUT_MS = Number(process.env.VJD_TEST_FILE_TIMEOUT_MS ?? 600_000);
const JOBS = Math.max(1, Number(process.env.VJD_TEST_JOBS ?? 2) || 1);

async function findTests(dir) {
  const out = [];
  for (const ent of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, ent.name);
    if (ent.isDirectory()) out.push(...(await findTests(p)));
    else if (ent.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--enable-source-maps', file], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group: servers a test file started die with it, even when it is killed on timeout.
      detached: true,
    });
    const killGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // group already gone
      }
    };
    let out = '';
    const onData = (chunk) => {
      out += chunk.toString();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => {
      out += `\n[run-tests] ${relative(root, file)} exceeded ${FILE_TIMEOUT_MS} ms; killed\n`;
      killGroup();
    }, FILE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      killGroup();
      const num = (label) => {
        const m = out.match(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'm'));
        return m ? Number(m[1]) : null;
      };
      const total = num('Total');
      const passed = num('Passed');
      const skipped = num('Skipped') ?? 0;
      let failed;
      if (total === null || passed === null)
        failed = 1; // crashed before uvu could report
      // uvu's Total counts the tests that ran: a skipped test (`test.skip`, a check this box cannot make) is not in it.
      else failed = total - passed + (code !== 0 && total - passed === 0 ? 1 : 0);
      const ms = Date.now() - started;
      process.stdout.write(`\n== ${relative(root, file)} (${(ms / 1000).toFixed(1)} s)\n${out}`);
      resolve({ file: relative(root, file), passed: passed ?? 0, failed, skipped, ms, failures: failed ? failureText(out) : '' });
    });
  });
}

/** A failed file's FAIL blocks (or its last lines when it crashed), repeated at the end where a CI log's tail shows them. */
function failureText(out) {
  const blocks = out
    .split(/\n(?=\s+FAIL\s)/)
    .slice(1)
    .map((b) =>
      b
        .split(/\n\s*Total:/)[0]
        .trim()
        .slice(0, 2000),
    );
  return blocks.length > 0 ? blocks.join('\n') : out.trim().split('\n').slice(-30).join('\n');
}

// GL unit tests (headless-gl) need an X display: one private Xvfb (started the way vjd starts its own)
// serves the whole run when none is set. Servers started by tests drop it again and start their own.
let display = null;
if (!process.env.DISPLAY) {
  const { ensureDisplay } = await import('../dist/src/workers/xvfb.js');
  const quiet = {
    info() {},
    warn() {},
    error(...args) {
      console.error(...args);
    },
  };
  display = await ensureDisplay(quiet);
  process.env.DISPLAY = display.name;
}

// One community license for the whole run (the test helper copies it into each server's data dir instead of
// activating through the CLI once per file).
const licenseDir = await mkdtemp(join(tmpdir(), 'vjd-test-license-'));
{
  const r = spawnSync(
    process.execPath,
    [join(root, 'dist', 'src', 'cli.js'), 'license', 'activate', '--community', '--data-dir', licenseDir],
    {
      encoding: 'utf8',
    },
  );
  if (r.status === 0) process.env.VJD_TEST_COMMUNITY_LICENSE = join(licenseDir, 'license.json');
  else process.stderr.write(`run-tests: community license activation failed (each file activates its own): ${r.stderr}\n`);
}

const DURATIONS = join(root, 'test', 'durations.json');
const files = (await findTests(testDir)).filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)));
const results = await runAll(files);
/** Runs the files JOBS at a time; a file marked alone waits until the others end and has the machine to itself. */
async function runAll(list) {
  const alone = new Set();
  for (const f of list) {
    const head = (await readFile(f, 'utf8')).slice(0, 1000);
    if (/^\/\/.*\btest-lane: alone\b/m.test(head)) alone.add(f);
  }
  // The alone files first, as one serial block; then the rest share the lanes longest first (by the last full run's
  // times in test/durations.json), so the run does not end on one long file with the other lane idle.
  const known = await readFile(DURATIONS, 'utf8').then(JSON.parse, () => ({}));
  const guess = (f) => known[relative(root, f)] ?? 30;
  const shared = list.filter((f) => !alone.has(f)).sort((a, b) => guess(b) - guess(a));
  const queue = [...list.filter((f) => alone.has(f)), ...shared];
  const out = [];
  const running = new Set();
  while (queue.length > 0 || running.size > 0) {
    const next = queue[0];
    const fits = next !== undefined && running.size < JOBS && !(alone.has(next) && running.size > 0) && ![...running].some((r) => r.alone);
    if (fits) {
      queue.shift();
      const job = { alone: alone.has(next), done: null };
      job.done = runFile(next).then((r) => {
        out.push(r);
        running.delete(job);
      });
      running.add(job);
      continue;
    }
    await Promise.race([...running].map((j) => j.done));
  }
  // The summary lists files in path order whatever order they ended in.
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

const passed = results.reduce((a, r) => a + r.passed, 0);
const failed = results.reduce((a, r) => a + r.failed, 0);
const skipped = results.reduce((a, r) => a + r.skipped, 0);
process.stdout.write('\n== summary\n');
for (const r of results) {
  process.stdout.write(
    `${r.failed ? 'FAIL' : 'ok  '} ${r.file}  ${r.passed} passed, ${r.failed} failed  (${(r.ms / 1000).toFixed(1)} s)\n`,
  );
}
if (files.length === 0) process.stdout.write('no test files found under dist/test\n');
for (const r of results.filter((x) => x.failed)) process.stdout.write(`\n== failed: ${r.file}\n${r.failures}\n`);
// A whole run records each file's time (seconds) for the next run's ordering.
if (filter.length === 0 && results.length > 0) {
  const times = Object.fromEntries(results.map((r) => [r.file, Math.round(r.ms / 100) / 10]));
  await writeFile(DURATIONS, `${JSON.stringify(times, null, 2)}\n`).catch(() => undefined);
}
await display?.stop();
await rm(licenseDir, { recursive: true, force: true });
// Tests this box cannot run are reported as not run (never as passed), on their own line: the last line stays
// the plain `N passed, N failed` that CI reads.
if (skipped) process.stdout.write(`${skipped} not run (a check this box cannot make; each file prints "not run: …" with the reason)\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 || files.length === 0 ? 1 : 0);
