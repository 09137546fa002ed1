// The modulation editor's fields on how a modulator moves its input: polarity and what the amount is a share of
// (every kind), an audio modulator's band, gain, threshold, attack and release, a beat modulator's decay. A change
// applies at once to a running modulator (numbers when committed), as the amount slider does.
import { useState } from 'preact/hooks';
import { BAND_NAMES } from '../band-names';
import { AMOUNTS_OF, POLARITIES, SOURCES, type Draft } from '../mod-draft';

type Edit = (patch: Partial<Draft>, live?: boolean) => void;

/**
 * A number field: what is typed stays as typed while the field is edited (live values re-render the editor many
 * times a second), and the value applies on commit (Enter or leaving the field), so "150" does not send 1 and 15.
 */
function NumberField(props: {
  id: string;
  label: string;
  min: number;
  max: number;
  step: number | 'any';
  value: number;
  set: (v: number, commit: boolean) => void;
}) {
  const [text, setText] = useState<string | null>(null);
  const take = (e: { currentTarget: HTMLInputElement }, commit: boolean): void => {
    const v = e.currentTarget.valueAsNumber;
    setText(commit ? null : e.currentTarget.value);
    if (Number.isFinite(v)) props.set(commit ? Math.min(props.max, Math.max(props.min, v)) : v, commit);
  };
  return (
    <label>
      <span>{props.label}</span>
      <input
        type="number"
        data-testid={props.id}
        min={props.min}
        max={props.max}
        step={props.step}
        value={text ?? props.value}
        onBlur={() => setText(null)}
        onInput={(e) => take(e, false)}
        onChange={(e) => take(e, true)}
      />
    </label>
  );
}

export function MotionFields(props: { id: string; draft: Draft; edit: Edit }) {
  const { id, draft, edit } = props;
  return (
    <>
      <label>
        <span>Polarity</span>
        <select
          data-testid={`${id}-mod-polarity`}
          value={draft.polarity}
          onChange={(e) => edit({ polarity: e.currentTarget.value as Draft['polarity'] }, true)}
        >
          {POLARITIES.map(([v, name]) => (
            <option value={v}>{name}</option>
          ))}
        </select>
      </label>
      <label>
        <span>Amount of</span>
        <select
          data-testid={`${id}-mod-amountof`}
          value={draft.amountOf}
          onChange={(e) => edit({ amountOf: e.currentTarget.value as Draft['amountOf'] }, true)}
        >
          {AMOUNTS_OF.map(([v, name]) => (
            <option value={v}>{name}</option>
          ))}
        </select>
      </label>
    </>
  );
}

export function AudioFields(props: { id: string; draft: Draft; edit: Edit }) {
  const { id, draft, edit } = props;
  return (
    <>
      <label>
        <span>Band</span>
        <select
          data-testid={`${id}-mod-source`}
          value={draft.source}
          onChange={(e) => edit({ source: e.currentTarget.value as Draft['source'] }, true)}
        >
          {SOURCES.map((s) => (
            <option value={s}>{BAND_NAMES[s]}</option>
          ))}
        </select>
      </label>
      <NumberField
        id={`${id}-mod-gain`}
        label="Gain"
        min={0}
        max={16}
        step={0.1}
        value={draft.gain}
        set={(gain, commit) => edit({ gain }, commit)}
      />
      <label>
        <span>Threshold {draft.threshold.toFixed(2)}</span>
        <input
          type="range"
          data-testid={`${id}-mod-threshold`}
          min={0}
          max={1}
          step={0.01}
          value={draft.threshold}
          onInput={(e) => edit({ threshold: Number(e.currentTarget.value) }, true)}
        />
      </label>
      <NumberField
        id={`${id}-mod-attack`}
        label="Attack ms"
        min={0}
        max={5000}
        step={1}
        value={draft.attackMs}
        set={(attackMs, commit) => edit({ attackMs }, commit)}
      />
      <NumberField
        id={`${id}-mod-release`}
        label="Release ms"
        min={0}
        max={10000}
        step={1}
        value={draft.releaseMs}
        set={(releaseMs, commit) => edit({ releaseMs }, commit)}
      />
    </>
  );
}

export function BeatFields(props: { id: string; draft: Draft; edit: Edit }) {
  const { id, draft, edit } = props;
  return (
    <>
      <NumberField
        id={`${id}-mod-every`}
        label="Every (beats)"
        min={0.25}
        max={64}
        step={0.25}
        value={draft.every}
        set={(every, commit) => edit({ every }, commit)}
      />
      <NumberField
        id={`${id}-mod-decay`}
        label="Decay ms"
        min={0}
        max={10000}
        step={1}
        value={draft.decayMs}
        set={(decayMs, commit) => edit({ decayMs }, commit)}
      />
    </>
  );
}
