// Take bar: the default transition and duration (the mixer's own, see transition.ts), Take, and the T-bar; on a phone it
// sits on the first screen with the program and preview pictures.
import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { call, problem } from '../api';
import { changed } from '../live';
import { notify, useLive } from '../store';
import { latest } from '../throttle';
import { currentTransition, DURATION_MAX_MS, setTransition, useTransition } from '../transition';

/** Takes what is on preview with this page's default transition. */
export async function take(): Promise<void> {
  const t = currentTransition();
  const r = await call('POST', '/mix/take', { body: { transition: t.type, durationMs: t.durationMs } });
  if (!r.ok) notify(problem(r));
  changed();
}

/** A duration field's text as milliseconds, or null when it is not a whole number the mixer takes. */
export function durationOf(text: string): number | null {
  if (!/^\d{1,5}$/.test(text.trim())) return null;
  const v = Number(text.trim());
  return v <= DURATION_MAX_MS ? v : null;
}

/** Transition select and duration field; `value` and `set` say whose choice they edit. */
export function TransitionFields(props: {
  value: { type: string; durationMs: number };
  set: (c: { type?: string; durationMs?: number }) => void;
  idPrefix: string;
  extra?: ComponentChildren;
}) {
  const transitions = useLive((s) => s.transitions);
  // The typed text while it is not a duration yet (empty, too long): the field keeps it and sends nothing.
  const [draft, setDraft] = useState<string | null>(null);
  const known = transitions.some((t) => t.type === props.value.type);
  return (
    <>
      <label class="field">
        <span>Transition</span>
        <select
          value={props.value.type}
          onChange={(e) => props.set({ type: e.currentTarget.value })}
          data-testid={`${props.idPrefix}transition`}
        >
          {props.extra}
          {!known && props.value.type !== '' && <option value={props.value.type}>{props.value.type}</option>}
          {transitions.map((t) => (
            <option key={t.type} value={t.type}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <label class="field duration">
        <span>Duration ms</span>
        <input
          type="number"
          min={0}
          max={DURATION_MAX_MS}
          step={100}
          value={draft ?? String(props.value.durationMs)}
          aria-invalid={draft !== null && durationOf(draft) === null}
          onInput={(e) => {
            const text = e.currentTarget.value;
            const ms = durationOf(text);
            setDraft(ms === null ? text : null);
            if (ms !== null) props.set({ durationMs: ms });
          }}
          onBlur={() => setDraft(null)}
          data-testid={`${props.idPrefix}duration`}
        />
      </label>
    </>
  );
}

export function TakePanel() {
  const mix = useLive((s) => s.mix);
  const transition = useTransition();
  const [tbar, setTbar] = useState<number | null>(null);
  const sendPosition = useMemo(
    () =>
      latest(async (value: number) => {
        const r = await call('POST', '/mix/position', { body: { value } });
        if (!r.ok) notify(problem(r));
        changed();
      }),
    [],
  );
  return (
    <section class="panel take" aria-labelledby="take-h" data-testid="take-panel">
      <h2 id="take-h" class="sr-only">
        Take
      </h2>
      <div class="row wrap">
        <TransitionFields value={transition} set={setTransition} idPrefix="" />
        <button
          type="button"
          class="primary take-go"
          data-testid="take"
          disabled={!mix?.preview || mix.inTransition}
          onClick={() => void take()}
        >
          Take
        </button>
      </div>
      <label class="slider">
        <span>T-bar</span>
        <input
          type="range"
          min={0}
          max={1}
          step={0.01}
          data-testid="tbar"
          disabled={!mix?.preview}
          value={tbar ?? mix?.position ?? 0}
          onInput={(e) => {
            const v = Number(e.currentTarget.value);
            setTbar(v);
            sendPosition(v);
          }}
          onChange={() => setTimeout(() => setTbar(null), 300)}
        />
        <output>{Math.round((tbar ?? mix?.position ?? 0) * 100)}%</output>
      </label>
    </section>
  );
}
