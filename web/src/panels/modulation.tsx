// The modulation control beside an input: a button that opens an editor (kind, shape or steps, rate in Hz or beat
// divisions, source, amount) and applies or removes the input's modulator; the freeze button for every modulated input.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { problem } from '../api';
import { freezeModulation, type Modulator } from '../mod-api';
import { latest } from '../throttle';
import { want } from '../wanted';
import { notify, update, useLive } from '../store';

const SHAPES = ['sine', 'triangle', 'saw', 'ramp', 'square', 'random', 'smooth'] as const;
const DIVISIONS = ['1/64', '1/32', '1/16', '1/8', '1/4', '1/2', '1', '2', '4', '8', '16', '32'] as const;
const FEELS = [
  ['', 'straight'],
  ['d', 'dotted'],
  ['t', 'triplet'],
] as const;
const SOURCES = ['level', 'bass', 'lowMid', 'highMid', 'high', 'onset'] as const;
type Kind = Modulator['kind'];

/** The editor's fields; a modulator is built from them on apply. */
interface Draft {
  kind: Kind;
  shape: (typeof SHAPES)[number];
  /** A beat division (`1/4`), or `hz` for a rate in Hz. */
  division: string;
  feel: string;
  hz: number;
  source: (typeof SOURCES)[number];
  every: number;
  /** Steps as typed (normalised positions). */
  steps: string;
  amount: number;
}

function draftOf(m: Modulator | null | undefined): Draft {
  const d: Draft = {
    kind: 'lfo',
    shape: 'sine',
    division: '1/4',
    feel: '',
    hz: 1,
    source: 'level',
    every: 1,
    steps: '0, 0.5, 1, 0.5',
    amount: 0.5,
  };
  if (!m) return d;
  d.kind = m.kind;
  d.amount = m.amount;
  if (typeof m.rate === 'number') {
    d.division = 'hz';
    d.hz = m.rate;
  } else if (typeof m.rate === 'string') {
    d.feel = /[dt]$/.test(m.rate) ? m.rate.slice(-1) : '';
    d.division = d.feel ? m.rate.slice(0, -1) : m.rate;
  }
  const shape = SHAPES.find((s) => s === m.shape);
  if (shape) d.shape = shape;
  const source = SOURCES.find((s) => s === m.source);
  if (source) d.source = source;
  if (typeof m.every === 'number') d.every = m.every;
  if (m.values) d.steps = m.values.join(', ');
  return d;
}

/** The step list as typed: numbers separated by commas or spaces; the server checks count and range. */
const stepsOf = (text: string): number[] =>
  text
    .split(/[\s,]+/)
    .filter((t) => t !== '')
    .map(Number);

function modulatorOf(d: Draft): Modulator {
  if (d.kind === 'audio') return { kind: 'audio', source: d.source, amount: d.amount };
  if (d.kind === 'beat') return { kind: 'beat', every: d.every, amount: d.amount };
  const rate = d.division === 'hz' ? d.hz : `${d.division}${d.feel}`;
  if (d.kind === 'steps') return { kind: 'steps', values: stepsOf(d.steps), rate, amount: d.amount };
  return { kind: 'lfo', shape: d.shape, rate, amount: d.amount };
}

/** `send(modulator)` applies one (null removes); the control keeps its editor open until removed or closed. */
export function ModControl(props: {
  id: string;
  label: string;
  modulator: Modulator | null;
  send: (m: Modulator | null) => Promise<boolean>;
}) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.modulator));
  useEffect(() => setDraft(draftOf(props.modulator)), [JSON.stringify(props.modulator)]);
  // Amount drags send the newest value only, one request at a time (as sliders do).
  const push = useMemo(() => latest((d: Draft) => props.send(modulatorOf(d))), [props.send]);
  const edit = (patch: Partial<Draft>, live = false): void => {
    const next = { ...draft, ...patch };
    setDraft(next);
    if (live && props.modulator) push(next);
  };
  const on = props.modulator !== null;
  const field = (name: string) => `${props.id}-mod-${name}`;
  return (
    <>
      <button
        type="button"
        class={`modbtn${on ? ' on' : ''}`}
        aria-expanded={open}
        aria-label={`Modulate ${props.label}${props.modulator ? ` (${props.modulator.kind})` : ''}`}
        data-testid={`${props.id}-mod`}
        onClick={() => setOpen(!open)}
      >
        ∿
      </button>
      {open && (
        <div class="modedit" data-testid={`${props.id}-modedit`}>
          <label>
            <span>Kind</span>
            <select
              id={field('kind')}
              value={draft.kind}
              data-testid={`${props.id}-mod-kind`}
              onChange={(e) => edit({ kind: e.currentTarget.value as Kind })}
            >
              <option value="lfo">LFO</option>
              <option value="audio">Audio</option>
              <option value="beat">Beat</option>
              <option value="steps">Steps</option>
            </select>
          </label>
          {(draft.kind === 'lfo' || draft.kind === 'steps') && (
            <>
              {draft.kind === 'lfo' ? (
                <label>
                  <span>Shape</span>
                  <select
                    data-testid={`${props.id}-mod-shape`}
                    value={draft.shape}
                    onChange={(e) => edit({ shape: e.currentTarget.value as Draft['shape'] })}
                  >
                    {SHAPES.map((s) => (
                      <option value={s}>{s}</option>
                    ))}
                  </select>
                </label>
              ) : (
                <label class="wide">
                  <span>Steps (0..1, one per period)</span>
                  <input
                    data-testid={`${props.id}-mod-steps`}
                    value={draft.steps}
                    maxLength={1024}
                    onInput={(e) => edit({ steps: e.currentTarget.value })}
                  />
                </label>
              )}
              <label>
                <span>Rate</span>
                <select
                  data-testid={`${props.id}-mod-rate`}
                  value={draft.division}
                  onChange={(e) => edit({ division: e.currentTarget.value })}
                >
                  {DIVISIONS.map((d) => (
                    <option value={d}>{d.includes('/') ? `${d} note` : `${d} bar${d === '1' ? '' : 's'}`}</option>
                  ))}
                  <option value="hz">Hz</option>
                </select>
              </label>
              {draft.division === 'hz' ? (
                <label>
                  <span>Hz</span>
                  <input
                    type="number"
                    min={0.01}
                    max={50}
                    step="any"
                    value={draft.hz}
                    onInput={(e) => edit({ hz: Number(e.currentTarget.value) })}
                  />
                </label>
              ) : (
                <label>
                  <span>Feel</span>
                  <select value={draft.feel} onChange={(e) => edit({ feel: e.currentTarget.value })}>
                    {FEELS.map(([v, name]) => (
                      <option value={v}>{name}</option>
                    ))}
                  </select>
                </label>
              )}
            </>
          )}
          {draft.kind === 'audio' && (
            <label>
              <span>Source</span>
              <select value={draft.source} onChange={(e) => edit({ source: e.currentTarget.value as Draft['source'] })}>
                {SOURCES.map((s) => (
                  <option value={s}>{s}</option>
                ))}
              </select>
            </label>
          )}
          {draft.kind === 'beat' && (
            <label>
              <span>Every (beats)</span>
              <input
                type="number"
                min={0.25}
                max={64}
                step={0.25}
                value={draft.every}
                onInput={(e) => edit({ every: Number(e.currentTarget.value) })}
              />
            </label>
          )}
          <label class="wide">
            <span>Amount {draft.amount.toFixed(2)}</span>
            <input
              type="range"
              min={-1}
              max={1}
              step={0.01}
              value={draft.amount}
              data-testid={`${props.id}-mod-amount`}
              onInput={(e) => edit({ amount: Number(e.currentTarget.value) }, true)}
            />
          </label>
          <div class="row wrap wide">
            <button type="button" class="primary" data-testid={`${props.id}-mod-apply`} onClick={() => void props.send(modulatorOf(draft))}>
              {on ? 'Apply' : 'Start'}
            </button>
            {on && (
              <button
                type="button"
                class="danger"
                data-testid={`${props.id}-mod-remove`}
                onClick={async () => {
                  if (await props.send(null)) setOpen(false);
                }}
              >
                Remove
              </button>
            )}
          </div>
        </div>
      )}
    </>
  );
}

/** Holds every modulated input where it is (a performer's panic button); pressed again, they run on in phase. */
export function FreezeButton() {
  const frozen = useLive((s) => s.frozen);
  return (
    <button
      type="button"
      class={frozen ? 'danger' : ''}
      aria-pressed={frozen}
      data-testid="mod-freeze"
      onClick={async () => {
        const r = await freezeModulation(!frozen);
        if (r.ok) update({ frozen: r.body.frozen });
        else notify(problem(r));
      }}
    >
      {frozen ? 'Release' : 'Freeze'}
    </button>
  );
}

/** Subscribes to the `live` topic while `active` (a panel shows a modulated input), so the server runs it only then. */
export function useWantLive(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    want('live', true);
    return () => want('live', false);
  }, [active]);
}
