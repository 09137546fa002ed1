// Audio worker entry: runs the selected input's ffmpeg, analyses every hop and publishes the values in the shared
// analysis block, so no message crosses threads per hop.
import { readlinkSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { AudioBlockWriter } from '../../src/shared/audio-block.js';
import type { AudioInit, AudioInput, AudioToMain, MainToAudio } from '../../src/shared/messages.js';
import { parentDeathPrefix } from '../../src/shared/parent-death.js';
import { expired } from '../../src/shared/rpc.js';
import { Analyser } from './analysis.js';
import { AudioInputRun } from './input.js';

if (!parentPort) throw new Error('workers/audio/main.js runs as a worker thread');
const port = parentPort;
const init = workerData as AudioInit;

const block = new AudioBlockWriter(init.block);
const analyser = new Analyser(init.sampleRate, init.hop);
/** Analysis time per hop, smoothed so one slow hop (a GC pause) does not swing the reported number. */
let hopMs = 0;
let run: AudioInputRun | null = null;
/** Selections apply one after another: a close must end before the next input starts. */
let queue: Promise<void> = Promise.resolve();

function post(msg: AudioToMain): void {
  port.postMessage(msg);
}

function logToMain(level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>): void {
  post({ t: 'log', level, msg, fields });
}

// The kernel kills ffmpeg when this thread ends, however it ends.
const wrapper: Promise<string[]> = parentDeathPrefix('KILL').then((prefix) => prefix ?? []);

function onHop(samples: Float32Array): void {
  const t0 = performance.now();
  const r = analyser.analyse(samples, init.gain);
  hopMs += (performance.now() - t0 - hopMs) * 0.05;
  r.values.hopMs = hopMs;
  block.write(r.values, r.onset);
}

async function select(input: AudioInput | null): Promise<void> {
  // The same input again keeps its running process (a repeated select is not a restart).
  if (input && run && run.input.id === input.id && run.input.source === input.source) return;
  const old = run;
  run = null;
  await old?.close();
  block.silence();
  analyser.reset();
  if (!input) {
    post({ t: 'state', input: null, state: 'stopped' });
    return;
  }
  const mine = new AudioInputRun(input, init, await wrapper, {
    onHop,
    onSilent: () => block.silence(),
    onState: (state, message, pid) => {
      if (run === mine) post({ t: 'state', input: input.id, state, message, pid, restarts: mine.restarts });
    },
    onLog: logToMain,
  });
  run = mine;
  mine.start();
}

port.on('message', (msg: MainToAudio) => {
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
  queue = queue
    .then(() => select(null))
    .then(() => {
      post({ t: 'stopped', id: msg.id });
      port.close();
    });
});

process.on('exit', () => run?.killSync());

// The analysis cost bench reads this thread's CPU time from /proc. /proc/thread-self names the calling thread's task,
// so it is read synchronously here, once: an async read would run on a pool thread and name that one.
try {
  const path = readlinkSync('/proc/thread-self');
  post({ t: 'thread', tid: Number(path.slice(path.lastIndexOf('/') + 1)) });
} catch {
  // no procfs: the bench reports the worker's CPU as unknown
}
