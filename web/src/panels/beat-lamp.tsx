// The beat lamp, lit from the tempo clock rather than on an event's arrival: every tempo event (and GET /tempo) says
// where the clock was (`position`, in beats) at a server instant (`at`); the page extrapolates the beat at its own
// animation frames and lights the lamp as each whole beat passes, so a late or bunched event moves nothing.
import { useEffect, useRef } from 'preact/hooks';

/** How long the lamp stays lit after a beat. */
const LAMP_MS = 120;
/** Arrival samples kept for the clock offset: enough to catch one that came without delay. */
const OFFSET_SAMPLES = 32;

/** What the lamp needs of the clock: its tempo and its beat position at a server instant. */
export interface ClockSample {
  bpm: number;
  position?: number;
  at?: number;
}

const pageNow = (): number => performance.timeOrigin + performance.now();

/**
 * The server clock's offset from the page's: arrival minus server time, whose minimum over recent samples is the
 * offset plus the least delay (a delayed sample only adds to it, so the minimum ignores the delays that vary).
 */
class OffsetEstimate {
  private readonly samples: number[] = [];

  add(arrival: number, at: number): void {
    this.samples.push(arrival - at);
    if (this.samples.length > OFFSET_SAMPLES) this.samples.shift();
  }

  get value(): number {
    return this.samples.length === 0 ? 0 : Math.min(...this.samples);
  }
}

/** The lamp: `sample` is the latest clock reading (a new object per event). */
export function BeatLamp({ sample }: { sample: ClockSample | null }) {
  const lamp = useRef<HTMLSpanElement>(null);
  const offset = useRef(new OffsetEstimate());
  const clock = useRef<{ bpm: number; position: number; at: number } | null>(null);

  useEffect(() => {
    if (!sample || typeof sample.position !== 'number' || typeof sample.at !== 'number') return;
    offset.current.add(pageNow(), sample.at);
    clock.current = { bpm: sample.bpm, position: sample.position, at: sample.at };
  }, [sample]);

  useEffect(() => {
    let frame = 0;
    let lastBeat: number | null = null;
    let litUntil = 0;
    const tick = (): void => {
      frame = requestAnimationFrame(tick);
      const el = lamp.current;
      const c = clock.current;
      if (!el || !c) return;
      const now = pageNow();
      const beats = c.position + ((now - offset.current.value - c.at) * c.bpm) / 60_000;
      const beat = Math.floor(beats);
      // A clock moved back (resync, nudge) only re-arms the lamp; a beat reached lights it once.
      if (lastBeat !== null && beat > lastBeat) {
        el.classList.add('on');
        el.dataset.beat = String(beat);
        el.dataset.litAt = now.toFixed(1);
        el.dataset.offset = offset.current.value.toFixed(1);
        litUntil = now + LAMP_MS;
      }
      lastBeat = beat;
      if (litUntil !== 0 && now >= litUntil) {
        el.classList.remove('on');
        litUntil = 0;
      }
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, []);

  return <span ref={lamp} class="lamp" data-testid="beat-lamp" data-beat="" role="img" aria-label="beat" />;
}
