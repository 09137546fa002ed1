// The modulation control beside an input: a button that opens an editor (kind, shape or steps, rate in Hz or beat
// divisions, the audio and beat settings, polarity, amount and what it is a share of) and applies or removes the
// modulator of an input or of one of its components.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { pickModulator, type Modulator } from '../mod-api';
import { bandName } from '../band-names';
import { DIVISIONS, defaultPolarity, draftOf, FEELS, modulatorOf, SHAPES, type Draft, type Kind } from '../mod-draft';
import { latest } from '../throttle';
import type { Input } from './controls';
import { AudioFields, BeatFields, MotionFields } from './mod-fields';
import { NumberField } from './number-field';

/** A running modulator in words for the button's label: its kind, and an audio one's band. */
const kindName = (m: Modulator): string => (m.kind === 'audio' && typeof m.source === 'string' ? `audio: ${bandName(m.source)}` : m.kind);

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
        aria-label={`Modulate ${props.label}${props.modulator ? ` (${kindName(props.modulator)})` : ''}`}
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
              onChange={(e) => {
                const kind = e.currentTarget.value as Kind;
                edit(on ? { kind } : { kind, polarity: defaultPolarity(kind) });
              }}
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
                // Typed text stays while the field is edited ("0." would otherwise read back as 0); Apply sends it.
                <NumberField id={field('hz')} label="Hz" min={0.01} max={50} step="any" value={draft.hz} set={(hz) => edit({ hz })} />
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
          {draft.kind === 'audio' && <AudioFields id={props.id} draft={draft} edit={edit} />}
          {draft.kind === 'beat' && <BeatFields id={props.id} draft={draft} edit={edit} />}
          <MotionFields id={props.id} draft={draft} edit={edit} />
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

/** An input's (or a component's) modulator and how to set it, as a control beside the input takes them. */
export interface Modulation {
  live: unknown;
  set: (name: string, m: Modulator | null, component?: string) => Promise<boolean>;
}

/** The ∿ control of one input, or of one component of a point2D or color input. */
export function ModFor(props: { id: string; label: string; input: Input; component?: string; mod: Modulation }) {
  const { mod, input, component } = props;
  const send = useMemo(() => (m: Modulator | null) => mod.set(input.name, m, component), [mod.set, input.name, component]);
  return <ModControl id={props.id} label={props.label} modulator={pickModulator(input.modulator, component)} send={send} />;
}
