// Transport of the clip on the program (or cued) bus: scrub bar with cue points, position and time remaining,
// play/pause, restart, speed or beat sync, loop mode and in/out points. Shown, and the `transport` topic subscribed,
// only while a bus holds a media clip.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLive } from '../store';
import { latest } from '../throttle';
import { want } from '../wanted';
import { drive, readTransport } from './transport-api';
import { Scrub } from './transport-scrub';
import { clock, moved, type Bus, type ClipView } from './transport-time';

const BEATS = [1, 2, 4, 8, 16] as const;
const LOOPS: Array<{ mode: ClipView['loop']; label: string }> = [
  { mode: 'loop', label: 'Loop' },
  { mode: 'once', label: 'Once (hold)' },
  { mode: 'once-black', label: 'Once, then black' },
];
const SPEED_MIN = 0.1;
const SPEED_MAX = 4;

type Entry = { type: string; sourceKind: string } | null | undefined;
const isClip = (e: Entry): boolean => e?.type === 'video' && e.sourceKind === 'file';

export function TransportPanel() {
  const mix = useLive((s) => s.mix);
  const source = useLive((s) => s.source);
  const program = isClip(mix?.program ?? source);
  const preview = isClip(mix?.preview);
  if (!program && !preview) return null;
  return <TransportBody program={program} preview={preview} />;
}

/** Redraws every animation frame while `on`, so a playing clip's position moves smoothly between events. */
function useFrames(on: boolean): number {
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    if (!on) return;
    let id = requestAnimationFrame(function tick(t) {
      setNow(t);
      id = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(id);
  }, [on]);
  return on ? now : performance.now();
}

function TransportBody({ program, preview }: { program: boolean; preview: boolean }) {
  const [chosen, setChosen] = useState<Bus>('program');
  const bus: Bus = chosen === 'preview' && preview ? 'preview' : program ? 'program' : 'preview';
  const all = useLive((s) => s.transport);
  const at = useLive((s) => s.transportAt);
  useEffect(() => {
    want('transport', true);
    void readTransport();
    return () => want('transport', false);
  }, []);
  const view = all?.[bus] ?? null;
  const now = useFrames(view?.state === 'playing');
  const [cueName, setCueName] = useState('');
  const [speed, setSpeed] = useState<number | null>(null);
  const sendSpeed = useMemo(() => latest((v: number) => drive('/transport/speed', bus, { speed: v })), [bus]);

  const where = view ? moved(view, now - at) : null;
  const pos = where?.positionS ?? 0;
  const shownSpeed = speed ?? view?.speed ?? 1;
  return (
    <section class="panel transport" aria-labelledby="transport-h" data-testid="transport-panel">
      <div class="row">
        <h2 id="transport-h" class="grow">
          Clip <span class="hint">{view ? view.name : 'opening…'}</span>
        </h2>
        {program && preview && (
          <select aria-label="Bus" data-testid="transport-bus" value={bus} onChange={(e) => setChosen(e.currentTarget.value as Bus)}>
            <option value="program">Program</option>
            <option value="preview">Preview</option>
          </select>
        )}
      </div>
      {view && (
        <>
          <Scrub view={view} bus={bus} positionS={pos} />
          <p class="row times">
            <strong data-testid="transport-position">{clock(pos)}</strong>
            <span class="grow hint" data-testid="transport-state">
              {view.state}
              {view.durationS !== null ? ` · ${clock(view.durationS)}` : ''}
            </span>
            <strong data-testid="transport-remaining">
              {where?.remainingS === null || where === null ? '—' : `−${clock(where.remainingS)}`}
            </strong>
          </p>
          <div class="grid-buttons">
            <button
              type="button"
              class="primary"
              aria-pressed={view.state === 'playing'}
              data-testid="transport-toggle"
              onClick={() => void drive(view.state === 'playing' ? '/transport/pause' : '/transport/play', bus)}
            >
              {view.state === 'playing' ? 'Pause' : 'Play'}
            </button>
            <button type="button" data-testid="transport-restart" onClick={() => void drive('/transport/restart', bus)}>
              Restart
            </button>
            <button type="button" data-testid="transport-in" onClick={() => void drive('/transport/inout', bus, { in: pos })}>
              In {view.in === null ? '' : clock(view.in)}
            </button>
            <button type="button" data-testid="transport-out" onClick={() => void drive('/transport/inout', bus, { out: pos })}>
              Out {view.out === null ? '' : clock(view.out)}
            </button>
            <button
              type="button"
              data-testid="transport-inout-clear"
              disabled={view.in === null && view.out === null}
              onClick={() => void drive('/transport/inout', bus, { in: null, out: null })}
            >
              Clear in/out
            </button>
          </div>
          <form
            class="row"
            onSubmit={(e) => {
              e.preventDefault();
              const name = cueName.trim();
              if (name === '') return;
              void drive('/transport/cues', bus, { name, positionS: pos }).then((c) => c && setCueName(''));
            }}
          >
            <input
              class="grow"
              aria-label="Cue name"
              placeholder="Cue name"
              maxLength={64}
              value={cueName}
              data-testid="transport-cue-name"
              onInput={(e) => setCueName(e.currentTarget.value)}
            />
            <button type="submit" data-testid="transport-cue-add" disabled={cueName.trim() === ''}>
              Add cue
            </button>
          </form>
          <label class="slider">
            <span>Speed</span>
            <input
              type="range"
              min={SPEED_MIN}
              max={SPEED_MAX}
              step={0.05}
              value={shownSpeed}
              data-testid="transport-speed"
              onInput={(e) => {
                const v = Number(e.currentTarget.value);
                setSpeed(v);
                sendSpeed(v);
              }}
              onChange={() => setTimeout(() => setSpeed(null), 500)}
            />
            <output data-testid="transport-speed-shown">×{shownSpeed.toFixed(2)}</output>
          </label>
          <fieldset class="row wrap beats" aria-label="Beat sync">
            <button
              type="button"
              aria-pressed={view.sync === null && view.speed === 1}
              onClick={() => void drive('/transport/speed', bus, { speed: 1 })}
            >
              ×1
            </button>
            {BEATS.map((beats) => (
              <button
                type="button"
                key={beats}
                aria-pressed={view.sync?.beats === beats}
                data-testid={`transport-beats-${beats}`}
                onClick={() => void drive('/transport/speed', bus, { sync: { beats } })}
              >
                {beats} {beats === 1 ? 'beat' : 'beats'}
              </button>
            ))}
          </fieldset>
          <label class="field">
            At the end
            <select
              data-testid="transport-loop"
              value={view.loop}
              onChange={(e) => void drive('/transport/loop', bus, { mode: e.currentTarget.value as ClipView['loop'] })}
            >
              {LOOPS.map((l) => (
                <option key={l.mode} value={l.mode}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
    </section>
  );
}
