// Output worker entry: one Consumer (a supervised ffmpeg) per active output, all fed from the program ring the
// render worker fills. Frames never cross a message; only states and counters go to the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { parentDeathPrefix } from '../../src/shared/parent-death.js';
import type { MainToOutput, OutputInit, OutputToMain } from '../../src/shared/protocol/output.js';
import { logTo } from '../../src/shared/protocol/common.js';
import { Consumer } from './consumer.js';
import { framesOf, ProgramFrames } from './program-frames.js';
import { SharedEncoders } from './shared-stream.js';
import { OutputSlots } from './slots.js';

if (!parentPort) throw new Error('workers/output/main.js runs as a worker thread');
const port = parentPort;
const init = workerData as OutputInit;
const post = (m: OutputToMain): void => port.postMessage(m);
const frames = new ProgramFrames(init.ring);
/** Mapped outputs' own rings (output mapping), by output id. */
const mapped = new Map<string, ProgramFrames>();
const onLog = logTo(post);

// The kernel kills each ffmpeg when this thread ends, however it ends (a SIGKILLed vjd included).
const wrapper: Promise<string[]> = parentDeathPrefix('KILL').then((prefix) => {
  if (!prefix) onLog('warn', 'setpriv --pdeathsig unavailable: output ffmpeg children may outlive a killed vjd');
  return prefix ?? [];
});
let prefix: string[] = [];
const ready = wrapper.then((p) => {
  prefix = p;
});

// Built once the wrapper is known (the slots start nothing before).
let shared: SharedEncoders | null = null;

const slots = new OutputSlots({
  ready,
  create: (id, gen, spec) => {
    // Streams (and recordings that may) share one encoder per distinct setting, each with its own target process.
    if (spec.kind === 'stream' || (spec.kind === 'record' && spec.share)) {
      shared ??= new SharedEncoders(
        { ffmpeg: init.ffmpeg, wrapper: prefix, frames, onLog },
        { has: (id) => mapped.has(id), frames: (id) => framesOf(id, mapped, frames) },
      );
      return shared.member(id, spec, {
        ffmpeg: init.ffmpeg,
        wrapper: prefix,
        onLog,
        onShared: (state, lastError, startedAt, pid, encoder, file) =>
          post({
            t: 'state',
            id,
            gen,
            state,
            lastError,
            startedAt,
            encoder,
            ...(file !== undefined ? { file } : {}),
            ...(pid !== undefined ? { pid } : {}),
          }),
      });
    }
    return new Consumer(id, spec, {
      ffmpeg: init.ffmpeg,
      wrapper: prefix,
      frames: framesOf(id, mapped, frames),
      onState: (state, lastError, startedAt, file, pid, size) =>
        post({
          t: 'state',
          id,
          gen,
          state,
          lastError,
          startedAt,
          ...(file !== undefined ? { file } : {}),
          ...(pid !== undefined ? { pid } : {}),
          ...(size !== undefined ? { size } : {}),
        }),
      onLog,
    });
  },
  ended: (id, gen, c) => post({ t: 'counters', items: [{ id, gen, ...c.counters }] }),
  skipped: (id, gen) => post({ t: 'state', id, gen, state: 'stopped', lastError: null, startedAt: null }),
  failed: (id, err) => onLog('error', 'output start or stop failed', { id, error: err.message }),
});

const countersTimer = setInterval(() => {
  const active = slots.active();
  if (active.length === 0) return;
  post({ t: 'counters', items: active.map(({ id, gen, consumer }) => ({ id, gen, ...consumer.counters })) });
}, 250);

port.on('message', (m: MainToOutput) => {
  switch (m.t) {
    case 'start':
      slots.start(m.id, m.gen, m.spec);
      return;
    case 'map-rings': {
      const before = new Map(mapped);
      mapped.clear();
      for (const { id, ring } of m.rings) {
        const had = before.get(id);
        mapped.set(id, had?.ring === ring ? had : new ProgramFrames(ring));
      }
      shared?.remap();
      return;
    }
    case 'stop-output':
      slots.stop(m.id);
      return;
    case 'stop':
      clearInterval(countersTimer);
      void slots.stopAll().then(() => {
        post({ t: 'stopped' });
        port.close();
      });
      return;
  }
});
