// Audio supervision over real HTTP: an input whose ffmpeg stops delivering (SIGSTOP) is restarted by the stall
// watchdog with its levels at 0 meanwhile, and a worker that keeps crashing is restarted with growing delays.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { AUDIO_LIMITS } from '../../src/limits.js';
import { audioFfmpegPids } from './audio-procs.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = (p: string) => req('GET', api(p));
const post = (p: string, body: unknown) => req('POST', api(p), { body });
const levels = async (): Promise<Record<string, number>> => (await get('/audio/levels')).json();
const audio = async (): Promise<any> => (await get('/audio')).json();

const config = {
  audio: { inputs: [{ id: 'low', name: 'Tone 80 Hz', kind: 'test', source: 'sine=frequency=80:sample_rate=48000' }], input: null },
};

async function until(what: string, ok: () => Promise<boolean>, stepMs = 100): Promise<void> {
  try {
    await waitUntil(ok, 30_000, stepMs);
  } catch {
    assert.unreachable(`${what} never happened; GET /audio: ${JSON.stringify(await audio())}`);
  }
}

test.before(async () => {
  s = await startServer({ config });
});

test.after(async () => {
  await s?.cleanup();
});

test('an ffmpeg that stops delivering is restarted after the stall time; levels read 0 meanwhile, then come back', async () => {
  assert.is((await post('/audio/select', { id: 'low' })).status, 200);
  await until('bass heard', async () => (await levels()).bass! > 0.8 && (await audio()).state === 'running');
  let pids: number[] = [];
  await until('one audio ffmpeg', async () => (pids = await audioFfmpegPids(s.proc.pid!)).length === 1);
  const restarts0 = (await audio()).restarts;
  // Alive but silent, as a wedged device or a hung stream reader would be: no exit for the supervisor to see.
  process.kill(pids[0]!, 'SIGSTOP');
  try {
    await until('silence while stalled', async () => (await levels()).level === 0, 20);
    const a = await audio();
    await until('the stall reported', async () => {
      const now = await audio();
      return now.state === 'retrying' && now.message.includes(`no samples for ${AUDIO_LIMITS.stallMs} ms`);
    });
    assert.is(a.current, 'low');
    await until('a fresh ffmpeg', async () => {
      const now = await audioFfmpegPids(s.proc.pid!);
      return now.length === 1 && now[0] !== pids[0];
    });
    await until('bass heard again', async () => (await levels()).bass! > 0.8 && (await audio()).state === 'running');
    assert.ok((await audio()).restarts > restarts0);
  } finally {
    try {
      process.kill(pids[0]!, 'SIGCONT');
    } catch {
      // killed by the watchdog, as it should be
    }
  }
});

/** The delays the server logged for its audio worker restarts, in order. */
function workerRestartDelays(): number[] {
  return s
    .logs()
    .split('\n')
    .filter((l) => l.includes('audio worker exited unexpectedly'))
    .map((l) => JSON.parse(l).retryInMs as number);
}

test('a worker that crashes again soon is restarted after a longer delay each time', async () => {
  for (let i = 0; i < 3; i++) {
    const hops = (await levels()).hops!;
    // Killed only once the previous restart has the input delivering again.
    assert.is((await post('/_test/kill-audio', {})).json().killed, true);
    await until(`restart ${i + 1} delivering`, async () => (await levels()).hops! > hops + 50 && (await audio()).state === 'running');
  }
  const first = AUDIO_LIMITS.workerRestartFirstMs;
  assert.equal(workerRestartDelays(), [first, first * 2, first * 4]);
});

test.run();
