// test-lane: alone (reads beats from real-time click tracks)
// The tempo clock's auto source over real HTTP with real ffmpeg click tracks: each tempo is read within 1 BPM with
// high confidence, a slow click is never doubled, the range picks the octave, a change of tempo is followed, and
// silence or a detached input keeps the clock running at the last tempo.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { change, clicks, lavfi } from '../helpers/beat-patterns.js';
import { req, sleep, startServer, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
const api = (p: string): string => `${s.base}/api/v1${p}`;

interface View {
  bpm: number;
  confidence: number;
  beat: number;
  source: string;
  range: { min: number; max: number };
}

const input = (id: string, expr: string) => ({ id, name: id, kind: 'test', source: lavfi(expr) });

test.before(async () => {
  s = await startServer({
    config: {
      audio: {
        inputs: [
          ...[75, 90, 120, 128, 140, 174].map((bpm) => input(`c${bpm}`, clicks(bpm))),
          // The tempo changes after the clock has had time to settle on the first one.
          input('change', change(120, 128, 20)),
          input('silent', '0'),
        ],
        input: null,
      },
    },
  });
});

test.after(async () => {
  await s?.cleanup();
});

const tempo = async (): Promise<View> => (await req('GET', api('/tempo'))).json();

async function select(id: string): Promise<void> {
  const r = await req('POST', api('/audio/select'), { body: { id } });
  assert.is(r.status, 200, r.text);
}

/** Waits until GET /tempo is within 1 BPM of `bpm` with high confidence; the readings are in the message on a miss. */
async function reaches(bpm: number): Promise<View> {
  const seen: string[] = [];
  let last: View | null = null;
  try {
    await waitUntil(
      async () => {
        last = await tempo();
        seen.push(`${last.bpm.toFixed(1)}@${last.confidence.toFixed(2)}`);
        return Math.abs(last.bpm - bpm) <= 1 && last.confidence >= 0.6;
      },
      60_000,
      250,
    );
  } catch {
    assert.unreachable(`tempo never reached ${bpm}: ${seen.slice(-40).join(' ')}`);
  }
  return last!;
}

test('auto is the source, and click tracks at 90, 120, 128 and 140 BPM read within 1 BPM, confident', async () => {
  assert.is((await tempo()).source, 'auto');
  for (const bpm of [90, 120, 128, 140]) {
    await select(`c${bpm}`);
    await reaches(bpm);
  }
});

test('a 75 BPM click in the default range reads 75 and stays there, never 150', async () => {
  await select('c75');
  await reaches(75);
  for (let i = 0; i < 12; i++) {
    const v = await tempo();
    assert.ok(Math.abs(v.bpm - 75) <= 1, `read ${v.bpm}`);
    await sleep(250);
  }
});

test('the range picks the octave: a 174 BPM click reads 87 in 75-150 and 174 in 100-200', async () => {
  await select('c174');
  await reaches(87);
  const r = await req('POST', api('/tempo/range'), { body: { min: 100, max: 200 } });
  assert.is(r.status, 200, r.text);
  await reaches(174);
  assert.is((await req('POST', api('/tempo/range'), { body: { min: 75, max: 150 } })).status, 200);
});

test('a change from 120 to 128 BPM is followed', async () => {
  await select('change');
  await reaches(120);
  await reaches(128);
});

test('silence and a detached input keep the clock running at the last tempo', async () => {
  const before = await tempo();
  assert.ok(Math.abs(before.bpm - 128) <= 1, `before ${before.bpm}`);
  for (const id of ['silent', 'none']) {
    await select(id);
    let v = await tempo();
    await waitUntil(async () => (v = await tempo()).confidence < 0.3, 60_000, 250);
    const bpm = v.bpm;
    const beat = v.beat;
    // Two seconds at 128 BPM is more than four beats.
    await sleep(2000);
    const after = await tempo();
    assert.ok(Math.abs(after.bpm - before.bpm) <= 1, `${id}: tempo ${before.bpm} became ${after.bpm}`);
    assert.ok(Math.abs(after.bpm - bpm) < 1e-6, `${id}: the tempo moved in silence (${bpm} → ${after.bpm})`);
    assert.ok(after.beat >= beat + 3, `${id}: beats ${beat} → ${after.beat}`);
  }
});

test.run();
