// Output worker entry: one Consumer (a supervised ffmpeg) per active output, all fed from the program ring the
// render worker fills. Frames never cross a message; only states and counters go to the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { parentDeathPrefix } from '../../src/shared/parent-death.js';
import type { MainToOutput, OutputInit, OutputToMain } from '../../src/shared/messages.js';
import { Consumer } from './consumer.js';
import { ProgramFrames } from './program-frames.js';

if (!parentPort) throw new Error('workers/output/main.js runs as a worker thread');
const port = parentPort;
const init = workerData as OutputInit;
const post = (m: OutputToMain): void => port.postMessage(m);
const frames = new ProgramFrames(init.ring);
const consumers = new Map<string, Consumer>();
/** Stops in progress by id: a start for the same id waits for the old ffmpeg to let go of its target. */
const stopping = new Map<string, Promise<void>>();

// The kernel kills each ffmpeg when this thread ends, however it ends (a SIGKILLed vjd included).
const wrapper: Promise<string[]> = parentDeathPrefix('KILL').then((prefix) => {
  if (!prefix) post({ t: 'log', level: 'warn', msg: 'setpriv --pdeathsig unavailable: output ffmpeg children may outlive a killed vjd' });
  return prefix ?? [];
});

const countersTimer = setInterval(() => {
  if (consumers.size === 0) return;
  post({ t: 'counters', items: [...consumers.values()].map((c) => ({ id: c.id, ...c.counters })) });
}, 250);

function stopOne(id: string): Promise<void> {
  const c = consumers.get(id);
  if (!c) return stopping.get(id) ?? Promise.resolve();
  consumers.delete(id);
  // Final counters first, so the main thread keeps the totals of the run that just ended.
  post({ t: 'counters', items: [{ id, ...c.counters }] });
  const done = c.stop().finally(() => {
    if (stopping.get(id) === done) stopping.delete(id);
  });
  stopping.set(id, done);
  return done;
}

port.on('message', (m: MainToOutput) => {
  switch (m.t) {
    case 'start': {
      const before = stopOne(m.id);
      void Promise.all([before, wrapper]).then(([, prefix]) => {
        if (consumers.has(m.id)) return;
        const c = new Consumer(m.id, m.spec, {
          ffmpeg: init.ffmpeg,
          wrapper: prefix,
          frames,
          onState: (state, lastError, startedAt, file, pid, size) =>
            post({
              t: 'state',
              id: m.id,
              state,
              lastError,
              startedAt,
              ...(file !== undefined ? { file } : {}),
              ...(pid !== undefined ? { pid } : {}),
              ...(size !== undefined ? { size } : {}),
            }),
          onLog: (level, msg, fields) => post({ t: 'log', level, msg, fields }),
        });
        consumers.set(m.id, c);
        c.start();
      });
      return;
    }
    case 'stop-output':
      void stopOne(m.id);
      return;
    case 'stop':
      clearInterval(countersTimer);
      void Promise.all([...consumers.keys()].map((id) => stopOne(id))).then(() => {
        post({ t: 'stopped' });
        port.close();
      });
      return;
  }
});
