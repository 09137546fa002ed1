// The cue list wired to the running show: its state in the store, the timecode and tempo clocks its triggers read,
// and the one dispatch (bound once the route table exists) its operations go through.
import type { Logger } from '../log.js';
import { beatGrid } from '../schedule/index.js';
import type { Scheduler } from '../schedule/scheduler.js';
import { clockNow, type TempoClock } from '../shared/tempo-block.js';
import type { StateStore } from '../state/store.js';
import type { TimecodeService } from '../timecode/service.js';
import type { Dispatch } from '../transports/request.js';
import { CueList } from './list.js';
import { CueRunner } from './runner.js';

export interface CuesDeps {
  state: StateStore;
  timecode: TimecodeService;
  tempo: { clock(): TempoClock };
  scheduler: Pick<Scheduler, 'cancel'>;
  log: Logger;
}

export function createCues(d: CuesDeps) {
  let isPost: (op: string) => boolean = () => false;
  let bound: Dispatch | null = null;
  const dispatch: Dispatch = (req) => (bound ? bound(req) : Promise.resolve({ status: 503, json: { message: 'not started' } }));
  const list = new CueList({ state: d.state, isPostRoute: (op) => isPost(op) });
  const tc = d.timecode;
  const runner = new CueRunner(
    list,
    {
      timecodeNow: () => {
        const now = clockNow();
        return tc.clock.running(now) ? tc.clock.framesAt(now) : null;
      },
      timecodeRate: () => tc.clock.rate,
      timecodeInstant: (frames) => tc.clock.instantOf(frames, clockNow()),
      grid: () => beatGrid(d.tempo.clock()),
    },
    dispatch,
    (id) => d.scheduler.cancel(id),
    d.log,
  );
  // These run inside a reader's packet handler: a fault here is logged, never thrown into the socket.
  const safely = (what: string, fn: () => void) => () => {
    try {
      fn();
    } catch (err) {
      d.log.error({ err: (err as Error).message }, `cue list: ${what} failed`);
    }
  };
  // A locate (a jump, a first lock, a relock) moves the list; a stop or a start only plans again.
  tc.on(
    'jump',
    safely('following a timecode jump', () => runner.timecodeMoved()),
  );
  // Freewheel still runs: only a clock that stopped takes back what was handed over.
  tc.on(
    'state',
    safely('following the timecode state', () => {
      if (!tc.clock.running(clockNow())) runner.timecodeStopped();
    }),
  );
  return {
    list,
    runner,
    /** Hands over the dispatch and the route check once the route table is compiled, then starts the triggers. */
    bind(dispatchNow: Dispatch, isPostRoute: (op: string) => boolean): void {
      bound = dispatchNow;
      isPost = isPostRoute;
      runner.start();
    },
    stop: () => runner.stop(),
  };
}

export type Cues = ReturnType<typeof createCues>;
