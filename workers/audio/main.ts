// Audio worker entry: runs the selected input's ffmpeg, analyses every hop and publishes the values in the shared
// analysis block, so no message crosses threads per hop; owns the tempo clock (runs with or without an input).
import { readlinkSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { AUDIO_BINS, AudioBlockWriter } from '../../src/shared/audio-block.js';
import type { AudioInit, AudioInput, AudioState, AudioToMain, MainToAudio } from '../../src/shared/protocol/audio.js';
import { parentDeathPrefix } from '../../src/shared/parent-death.js';
import { expired } from '../../src/shared/rpc.js';
import { logTo } from '../../src/shared/protocol/common.js';
import { clockNow, TempoBlockReader } from '../../src/shared/tempo-block.js';
import { Analyser } from './analysis.js';
import { BeatTracker } from './beat-tracker.js';
import { Clock } from './clock.js';
import { AudioInputRun } from './input.js';
import { RingInputRun } from './ring-input.js';
import { LtcRun } from './ltc-run.js';

if (!parentPort) throw new Error('workers/audio/main.js runs as a worker thread');
const port = parentPort;
const init = workerData as AudioInit;

const block = new AudioBlockWriter(init.block);
const analyser = new Analyser(init.sampleRate, init.hop);
/** The clock goes on from the block: a restarted worker keeps the tempo and phase the last one left there. */
const clock = new Clock(init.tempo, new TempoBlockReader(init.tempo).read(), init.tempoInit);
let gain = init.gain;
const tracker = new BeatTracker(init.sampleRate / init.hop);
/** The range the tracker searches, passed on from the clock whenever it differs. */
let trackedRange = { min: 0, max: 0 };
/** Analysis time per hop, smoothed so one slow hop (a GC pause) does not swing the reported number. */
let hopMs = 0;
let run: AudioInputRun | RingInputRun | null = null;
/** Selections apply one after another: a close must end before the next input starts. */
let queue: Promise<void> = Promise.resolve();

function post(msg: AudioToMain): void {
  port.postMessage(msg);
}

const logToMain = logTo(post);

// The kernel kills ffmpeg when this thread ends, however it ends.
const wrapper: Promise<string[]> = parentDeathPrefix('KILL').then((prefix) => prefix ?? []);

/** The spectrum handed to the block each hop (one array, refilled). */
const spectrum = new Float32Array(AUDIO_BINS);

function onHop(samples: Float32Array): void {
  // The hop's instant in every thread's time base: the render worker picks the hop of a frame's due time by it.
  const t = clockNow();
  const t0 = performance.now();
  const r = analyser.analyse(samples, gain);
  hopMs += (performance.now() - t0 - hopMs) * 0.05;
  r.values.hopMs = hopMs;
  analyser.spectrumInto(spectrum);
  block.write(r.values, r.onset, { t, spectrum, waveform: analyser.waveform() });
  track(r.strength);
}

/** Feeds the tracker every hop; at its estimate rate, the clock follows it while its source is auto. */
function track(strength: number): void {
  const now = clockNow();
  if (!tracker.push(strength, now)) return;
  const { range, source } = clock.state;
  if (range.min !== trackedRange.min || range.max !== trackedRange.max) {
    trackedRange = { ...range };
    tracker.setRange(range.min, range.max);
  }
  // The estimate is the expensive part: only made when the clock follows it.
  if (source === 'auto') clock.follow(tracker.estimate(), now);
}

async function select(input: AudioInput | null): Promise<void> {
  // The same input again keeps its running process (a repeated select is not a restart); a ring input only
  // moves to the ring it is handed (the program changed).
  if (input?.kind === 'ring' && run instanceof RingInputRun && run.input.id === input.id) return run.follow(input);
  if (input && run && JSON.stringify(run.input) === JSON.stringify(input)) return;
  const old = run;
  run = null;
  await old?.close();
  block.silence();
  analyser.reset();
  // Another input's beats are not this one's: the tracker starts from nothing and the clock free-wheels meanwhile.
  tracker.reset();
  if (clock.state.source === 'auto') clock.follow(null, clockNow());
  if (!input) {
    post({ t: 'state', input: null, state: 'stopped' });
    return;
  }
  const hooks = {
    onHop,
    onSilent: () => block.silence(),
    onState: (state: AudioState, message?: string, pid?: number) => {
      if (run === mine) post({ t: 'state', input: input.id, state, message, pid, restarts: mine.restarts });
    },
    onLog: logToMain,
  };
  const mine = input.kind === 'ring' ? new RingInputRun(input, init, hooks) : new AudioInputRun(input, init, await wrapper, hooks);
  run = mine;
  mine.start();
}

/** The timecode reader, apart from the analysed input (its own ffmpeg, one channel). */
const ltc = new LtcRun(init, wrapper, post, logToMain);
let ltcQueue: Promise<void> = Promise.resolve();

port.on('message', (msg: MainToAudio) => {
  if (msg.t === 'ltc') {
    ltcQueue = ltcQueue
      .then(() => ltc.select(msg.input, msg.channel))
      .catch((err: Error) => logToMain('error', 'LTC reader failed to start', { error: err.message }));
    return;
  }
  if (expired(msg)) {
    // Answered all the same: the caller learns the state from the next `state` message.
    logToMain('warn', 'audio request past its deadline', { t: msg.t });
  }
  if (msg.t === 'select') {
    queue = queue
      .then(() => select(msg.input))
      .catch((err: Error) => logToMain('error', 'audio select failed', { error: err.message }))
      .then(() => post({ t: 'selected', id: msg.id }));
    return;
  }
  if (msg.t === 'tempo' || msg.t === 'gain') {
    // Applied at once, not behind a selection in progress: the clock must not wait for an ffmpeg to close.
    if (msg.t === 'tempo') clock.apply(msg.cmd, msg.at);
    else gain = msg.gain;
    post({ t: 'done', id: msg.id });
    return;
  }
  queue = queue
    .then(() => select(null))
    .then(() => ltc.select(null, 0))
    .then(() => {
      post({ t: 'stopped', id: msg.id });
      port.close();
    });
});

process.on('exit', () => {
  run?.killSync();
  ltc.killSync();
});

// The analysis cost bench reads this thread's CPU time from /proc. /proc/thread-self names the calling thread's task,
// so it is read synchronously here, once: an async read would run on a pool thread and name that one.
try {
  const path = readlinkSync('/proc/thread-self');
  post({ t: 'thread', tid: Number(path.slice(path.lastIndexOf('/') + 1)) });
} catch {
  // no procfs: the bench reports the worker's CPU as unknown
}
