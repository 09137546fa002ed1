// Fault injection on the persisted show state over real HTTP: state writes failing with a full disk, and SIGKILL
// in the middle of a burst of chain mutations, repeated, with state.json checked after every kill and restart.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdir, open, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { Client, FaultReport, poll } from './faults-common.js';

const run = promisify(execFile);
const report = new FaultReport();
const NO_LIVE = { live: { test: [], streams: [], v4l2: { enabled: false } } };

interface Entry {
  type: string;
  enabled: boolean;
}

const chainOfEffects = (b: any): Entry[] => b.items.map((i: any) => ({ type: i.type, enabled: i.enabled }));
const chainOfState = (text: string): Entry[] =>
  (JSON.parse(text) as { chain: Entry[] }).chain.map((e) => ({ type: e.type, enabled: e.enabled }));
const same = (a: Entry[], b: Entry[]): boolean => JSON.stringify(a) === JSON.stringify(b);

async function stateText(dataDir: string): Promise<string> {
  return readFile(join(dataDir, 'state.json'), 'utf8');
}

/** Mounts a small tmpfs on `dir` when this process may (root, mount allowed); false otherwise. */
async function mountTmpfs(dir: string): Promise<boolean> {
  if (process.env.VJD_FAULTS_NO_MOUNT === '1' || process.getuid?.() !== 0) return false;
  try {
    await run('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0755', 'tmpfs', dir]);
    return true;
  } catch {
    return false;
  }
}

/** Fills the filesystem of `file` until ENOSPC; returns the bytes written. */
async function fillDisk(file: string): Promise<number> {
  const fh = await open(file, 'w');
  let total = 0;
  try {
    for (const size of [256 * 1024, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      for (;;) {
        try {
          const { bytesWritten } = await fh.write(chunk);
          total += bytesWritten;
          if (bytesWritten < size) break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    await fh.close();
  }
  return total;
}

test('disk full on state writes: mutations apply but answer 503 STATE_NOT_SAVED, the error is logged, state.json stays the last good write, then saves', () =>
  report.run('disk-full-state-write', async () => {
    const work = await tempDir('vjd-faults-disk-');
    const dataDir = join(work, 'data');
    const flag = join(work, 'disk-full');
    await mkdir(dataDir);
    const mounted = await mountTmpfs(dataDir);
    let s: TestServer | null = null;
    try {
      // With a tmpfs, the disk really fills up; otherwise the env-guarded hook in atomic-write.ts fails writes.
      const env: Record<string, string> = mounted ? {} : { VJD_FAULT_DISK_FULL_WHILE: flag };
      s = await startServer({ dataDir, env, config: NO_LIVE });
      const c = new Client(() => s!.base);
      assert.is((await c.post('/effects/add', { type: 'invert' })).status, 200);
      await poll(
        'invert in state.json',
        async () => (same(chainOfState(await stateText(dataDir)), [{ type: 'invert', enabled: true }]) ? true : undefined),
        15000,
      );
      if (mounted) await fillDisk(join(dataDir, 'filler'));
      else await writeFile(flag, '');
      const failedBefore = s.logs().split('state write failed').length - 1;
      for (const [route, body] of [
        ['/effects/add', { type: 'hue_shift' }],
        ['/effects/toggle', { index: 1 }],
        ['/effects/add', { type: 'pixelate' }],
        ['/effects/remove', { index: 2 }],
      ] as const) {
        const r = await c.post(route, body);
        // A 200 promises the change is on disk; with the disk full the change is applied, and said to be unsaved.
        assert.is(r.status, 503, `${route} with the disk full: ${r.text}`);
        assert.is(r.json().code, 'STATE_NOT_SAVED');
        assert.match(r.json().message, /ENOSPC/);
      }
      const expected: Entry[] = [
        { type: 'invert', enabled: false },
        { type: 'pixelate', enabled: true },
      ];
      assert.equal(chainOfEffects(await c.json('/effects')), expected, 'the chain lives on in memory');
      await poll(
        'the write failure to be logged',
        () => (s!.logs().split('state write failed').length - 1 > failedBefore ? true : undefined),
        15000,
      );
      // The last good write is what is on disk once writes fail: read here, no start-up write (palette, source) can
      // land after it, however slow the machine. None of the mutations above made it to disk.
      const good = await stateText(dataDir);
      assert.equal(chainOfState(good), [{ type: 'invert', enabled: true }], 'no mutation made with the disk full was saved');
      const line = s
        .logs()
        .split('\n')
        .find((l) => l.includes('state write failed'))!;
      assert.match(line, /ENOSPC/, `the cause is logged: ${line}`);
      assert.match(line, /state\.json/, 'with the file');
      const dimmer = await c.post('/global/dimmer', { value: 0.5 });
      assert.is(dimmer.status, 503, `other state changes are refused the same way: ${dimmer.text}`);
      assert.is((await c.json('/global')).dimmer, 0.5, 'and applied all the same');
      // While the disk stays full (retries keep failing), state.json is always the last good write, never a torn one.
      const until = Date.now() + 2500;
      let reads = 0;
      while (Date.now() < until) {
        const t = await stateText(dataDir);
        JSON.parse(t);
        assert.is(t, good, 'state.json is the last successful write');
        reads++;
        await new Promise((r) => setTimeout(r, 25));
      }
      const names = await readdir(dataDir);
      assert.equal(
        names.filter((n) => n.startsWith('.state.json.')),
        [],
        'failed writes leave no temp files behind',
      );

      // Space comes back 2.5 s after the last request: the pending state is saved without any further request.
      if (mounted) await rm(join(dataDir, 'filler'));
      else await rm(flag);
      const freedAt = Date.now();
      await poll(
        'state.json to catch up',
        async () => {
          const saved = JSON.parse(await stateText(dataDir));
          return same(chainOfState(JSON.stringify(saved)), expected) && saved.dimmer === 0.5 ? true : undefined;
        },
        15000,
      );
      const catchUpMs = Date.now() - freedAt;
      await s.waitForLog('state written again', 15000);
      assert.equal(
        c.serverErrors.filter((e) => !e.includes('STATE_NOT_SAVED')),
        [],
      );
      assert.is((await c.post('/global/dimmer', { value: 0.5 })).status, 200, 'mutations answer 200 again once writes succeed');
      await s.stop();
      s = await startServer({ dataDir, env, config: NO_LIVE });
      const again = new Client(() => s!.base);
      assert.equal(chainOfEffects(await again.json('/effects')), expected, 'a restart restores what was saved after the disk freed up');
      return `${mounted ? 'data dir on a 4 MiB tmpfs filled to ENOSPC' : 'ENOSPC injected by VJD_FAULT_DISK_FULL_WHILE (no tmpfs mount possible)'}: 5 mutations applied and answered 503 STATE_NOT_SAVED, ENOSPC logged with the file, state.json read ${reads} times and always equal to the last good write, no temp files left; saved ${catchUpMs} ms after space came back with no further request; restored after a restart`;
    } finally {
      await s?.stop();
      if (mounted) await run('umount', [dataDir]).catch(() => run('umount', ['-l', dataDir]));
      await rm(work, { recursive: true, force: true });
    }
  }));

// --- SIGKILL during a burst of chain mutations ---

type Mutation =
  | { route: '/effects/add'; body: { type: string } }
  | { route: '/effects/remove' | '/effects/toggle'; body: { index: number } };

const CEILING = 8;

/** Small seeded PRNG (mulberry32), so a failing run can be repeated with its printed seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Many types and random toggles make the chain states of one burst nearly all distinct, so "equals the state
// after mutation k" pins k down instead of matching a state that merely recurs.
function nextMutation(chain: Entry[], types: string[], r: () => number): Mutation {
  const x = r();
  if (chain.length === 0 || (chain.length < CEILING && x < 0.45))
    return { route: '/effects/add', body: { type: types[Math.floor(r() * types.length)]! } };
  const index = 1 + Math.floor(r() * chain.length);
  return x < 0.75 ? { route: '/effects/toggle', body: { index } } : { route: '/effects/remove', body: { index } };
}

function apply(chain: Entry[], m: Mutation): Entry[] {
  if (m.route === '/effects/add') return [...chain, { type: m.body.type, enabled: true }];
  const i = m.body.index - 1;
  if (m.route === '/effects/remove') return chain.filter((_, j) => j !== i);
  return chain.map((e, j) => (j === i ? { ...e, enabled: !e.enabled } : e));
}

/**
 * Criterion for state.json after a SIGKILL. Chain mutations are sent one at a time, so the server has applied the
 * acknowledged ones (states S_0..S_n) and at most one more, the request in flight at the kill (S_n+1). A 200 means
 * the change is on disk, so the saved chain must be S_n, or S_n+1 when a request was in flight. A dimmer stream
 * runs beside it on its own connection with rising values: the saved dimmer is at least the last acknowledged one
 * and at most the last one sent. A torn file, a state that never was, or any lost acknowledged change fails.
 */
/** Kill rounds per run: each run draws a new seed, so the moments covered add up across runs (VJD_FAULTS_ROUNDS for more). */
const ROUNDS = Number(process.env.VJD_FAULTS_ROUNDS ?? 10);

test('SIGKILL at random moments (10 a run) during chain and dimmer mutations: every acknowledged change is in state.json; a restart restores it', () =>
  report.run('sigkill-during-mutations', async () => {
    const seed = Number(process.env.VJD_FAULTS_SEED ?? Date.now() % 1e9);
    const r = rng(seed);
    const dataDir = await tempDir('vjd-faults-kill-');
    let s: TestServer | null = null;
    const rounds: string[] = [];
    let saved: Entry[] = [];
    let totalAcked = 0;
    let leftoverTemps = 0;
    try {
      let dimmerSent = 0;
      let dimmerAcked = 0;
      for (let round = 0; round < ROUNDS; round++) {
        s = await startServer({ dataDir, config: NO_LIVE });
        const c = new Client(() => s!.base);
        assert.equal(
          chainOfEffects(await c.json('/effects')),
          saved,
          `round ${round}: the restarted server restores the saved chain (seed ${seed})`,
        );
        const ownTemp = `.state.json.${s.proc.pid}.`;
        const stale = (await readdir(dataDir)).filter((f) => f.startsWith('.state.json.') && !f.startsWith(ownTemp));
        assert.equal(stale, [], 'temp files of a killed write are removed at the next start');
        const types = (await c.json('/effects/available')).items.map((i: any) => i.type as string).sort();
        assert.ok(types.length >= 8, 'enough effect types for distinct states');
        const states: Entry[][] = [saved];
        const ackTimes: number[] = [];
        let killTime = 0;
        let inFlight: Mutation | null = null;
        const delay = 100 + Math.floor(r() * 1400);
        const proc = s.proc;
        // Timed from the first acknowledged mutation, so every round kills a burst under way however slowly the
        // machine starts one.
        let killer: NodeJS.Timeout | undefined;
        const arm = (): void => {
          killer ??= setTimeout(() => {
            killTime = Date.now();
            proc.kill('SIGKILL');
          }, delay);
        };
        // The fader: its own connection, values rising by one step per request, so "saved >= last acked" is exact.
        const dimmers = (async () => {
          for (;;) {
            const step = ++dimmerSent;
            try {
              const d = await c.post('/global/dimmer', { value: step / 100_000 });
              if (d.status === 200) dimmerAcked = step;
            } catch {
              return;
            }
          }
        })();
        for (;;) {
          const current = states[states.length - 1]!;
          const m = nextMutation(current, types, r);
          let res;
          try {
            res = await c.post(m.route, m.body);
          } catch (err) {
            assert.ok(killTime > 0, `request failed before the kill: ${(err as Error).message}`);
            inFlight = m;
            break;
          }
          if (res.status === 200) {
            ackTimes.push(Date.now());
            states.push(apply(current, m));
            arm();
          } else {
            // A 503 CHAIN_BUSY changed nothing; anything else means the model and the server disagree.
            assert.is(res.status, 503, `${m.route} ${JSON.stringify(m.body)} answered ${res.status}: ${res.text} (seed ${seed})`);
          }
          if (killTime > 0 && Date.now() - killTime > 2000) assert.unreachable('the server outlived SIGKILL');
        }
        clearTimeout(killer);
        await dimmers;
        await s.stop();
        const text = await stateText(dataDir);
        let chain: Entry[];
        try {
          chain = chainOfState(text);
        } catch (err) {
          throw new Error(
            `round ${round}: state.json does not parse after SIGKILL at ${delay} ms (seed ${seed}): ${(err as Error).message}\n${text}`,
          );
        }
        const n = ackTimes.length;
        const kMin = n;
        const savedDimmer = Math.round((JSON.parse(text) as { dimmer: number }).dimmer * 100_000);
        assert.ok(
          savedDimmer >= dimmerAcked && savedDimmer <= dimmerSent,
          `round ${round}: saved dimmer step ${savedDimmer}, acknowledged ${dimmerAcked}, sent ${dimmerSent} (seed ${seed})`,
        );
        const candidates = states.slice(kMin).map((st, i) => ({ k: kMin + i, st }));
        if (inFlight) candidates.push({ k: n + 1, st: apply(states[n]!, inFlight) });
        const hit = candidates.filter((cand) => same(cand.st, chain)).map((cand) => cand.k);
        assert.ok(
          hit.length > 0,
          `round ${round} (kill at ${delay} ms, seed ${seed}): saved chain ${JSON.stringify(chain)} is not the state after any of mutations ${kMin}..${inFlight ? n + 1 : n}`,
        );
        leftoverTemps += (await readdir(dataDir)).filter((f) => f.startsWith('.state.json.')).length;
        totalAcked += n;
        rounds.push(`${delay} ms: ${n} chain + dimmer ${dimmerAcked} acked, saved ${hit.join('/')}`);
        saved = chain;
        s = null;
      }
      s = await startServer({ dataDir, config: NO_LIVE });
      assert.equal(chainOfEffects(await new Client(() => s!.base).json('/effects')), saved, 'the final restart restores the saved chain');
      const ownTemp = `.state.json.${s.proc.pid}.`;
      assert.equal(
        (await readdir(dataDir)).filter((f) => f.startsWith('.state.json.') && !f.startsWith(ownTemp)),
        [],
        'no stale temp files',
      );
      // Each round acknowledged at least one mutation before its kill (the kill is timed from the first); how many
      // more depends on the machine's speed, so the total is reported, not bounded.
      return `${ROUNDS} SIGKILLs during add/remove/toggle bursts with a concurrent dimmer stream (seed ${seed}, ${totalAcked} chain mutations acknowledged); state.json parsed every time and held every acknowledged change; each restart restored it. ${rounds.join('; ')}; temp files left by the kills: ${leftoverTemps}, all removed at the next start`;
    } finally {
      await s?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }));

test.after(async () => {
  await report.save();
});

test.run();
