// The scheduler wired to the running show: the render worker's gate and the tempo clock's beat grid.
import type { Logger } from '../log.js';
import type { TempoClock } from '../shared/tempo-block.js';
import type { TempoService } from '../tempo/service.js';
import type { RenderClient } from '../workers/render-client.js';
import { Scheduler } from './scheduler.js';

export { Scheduler } from './scheduler.js';

export function createScheduler(render: RenderClient, tempo: Pick<TempoService, 'clock'>, fps: () => number, log: Logger): Scheduler {
  return new Scheduler({
    gate: {
      shut: (id, at) => render.shutGate(id, at),
      open: (id) => render.openGate(id),
      onApplied: (fn) => void render.on('gate-applied', fn),
    },
    grid: () => beatGrid(tempo.clock()),
    periodMs: () => 1000 / fps(),
    log,
  });
}

/** An auto clock that has not found a beat yet is no grid: its beats would land anywhere. */
export function beatGrid(c: TempoClock): TempoClock | null {
  if (!(c.bpm > 0) || !Number.isFinite(c.refTime)) return null;
  return c.source === 'auto' && c.confidence <= 0 ? null : c;
}
