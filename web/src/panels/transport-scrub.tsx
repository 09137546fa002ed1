// The scrub bar: the in-out span of the clip with its position; a drag seeks a few times a second and once more on
// release, a click seeks there, the cue points sit on it as markers that seek to their cue.
import { useMemo, useRef, useState } from 'preact/hooks';
import { paced } from '../throttle';
import { drive } from './transport-api';
import { clock, share, span, type Bus, type ClipView } from './transport-time';

/** Sends during a drag start at least this far apart. */
const DRAG_GAP_MS = 250;
/** Arrow keys move by this share of the span. */
const KEY_STEP = 0.05;

export function Scrub({ view, bus, positionS }: { view: ClipView; bus: Bus; positionS: number }) {
  const bar = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<number | null>(null);
  // A ref as well as state: a quick click's pointerup can come before the re-render that pointerdown asked for.
  const dragging = useRef(false);
  const send = useMemo(() => paced((fraction: number) => drive('/transport/seek', bus, { fraction }), DRAG_GAP_MS), [bus]);
  const at = (clientX: number): number => {
    const r = bar.current?.getBoundingClientRect();
    if (!r || r.width <= 0) return 0;
    return Math.min(Math.max((clientX - r.left) / r.width, 0), 1);
  };
  const shown = drag ?? share(view, positionS);
  const { start, end } = span(view);
  return (
    <div class="scrub-wrap">
      <div
        ref={bar}
        class="scrub"
        role="slider"
        tabIndex={0}
        aria-label="Position"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(shown * 100)}
        aria-valuetext={clock(positionS)}
        data-testid="transport-scrub"
        data-fraction={shown.toFixed(3)}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          const f = at(e.clientX);
          dragging.current = true;
          setDrag(f);
          send(f);
        }}
        onPointerMove={(e) => {
          if (!dragging.current) return;
          const f = at(e.clientX);
          setDrag(f);
          send(f);
        }}
        onPointerUp={(e) => {
          if (!dragging.current) return;
          dragging.current = false;
          send(at(e.clientX));
          setDrag(null);
        }}
        onPointerCancel={() => {
          dragging.current = false;
          setDrag(null);
        }}
        onKeyDown={(e) => {
          const step = e.key === 'ArrowRight' ? KEY_STEP : e.key === 'ArrowLeft' ? -KEY_STEP : 0;
          if (step === 0) return;
          e.preventDefault();
          send(Math.min(Math.max(shown + step, 0), 1));
        }}
      >
        <span class="scrub-fill" style={{ width: `${shown * 100}%` }} />
      </div>
      <div class="cue-strip">
        {view.cues
          .filter((c) => c.positionS >= start && c.positionS <= end)
          .map((c) => (
            <button
              type="button"
              key={c.name}
              class="cue-mark"
              style={{ left: `${share(view, c.positionS) * 100}%` }}
              title={`${c.name} (${clock(c.positionS)})`}
              aria-label={`Cue ${c.name}`}
              data-testid="transport-cue"
              data-name={c.name}
              onClick={() => void drive('/transport/seek', bus, { cue: c.name })}
            >
              {c.name}
            </button>
          ))}
      </div>
    </div>
  );
}
