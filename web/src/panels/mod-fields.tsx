// The modulation editor's fields on how a modulator moves its input: polarity and what the amount is a share of
// (every kind), an audio modulator's band, gain, threshold, attack and release, a beat modulator's trigger (every so
// many beats, or each audio onset) and decay. A change applies at once to a running modulator (numbers when
// committed), as the amount slider does.
import { BAND_NAMES } from '../band-names';
import { AMOUNTS_OF, POLARITIES, SOURCES, type Draft } from '../mod-draft';
import { NumberField } from './number-field';

type Edit = (patch: Partial<Draft>, live?: boolean) => void;

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
      <label>
        <span>Trigger</span>
        <select
          data-testid={`${id}-mod-trigger`}
          value={draft.onset ? 'onset' : 'beats'}
          onChange={(e) => edit({ onset: e.currentTarget.value === 'onset' }, true)}
        >
          <option value="beats">Every few beats</option>
          <option value="onset">Each audio onset</option>
        </select>
      </label>
      {!draft.onset && (
        <NumberField
          id={`${id}-mod-every`}
          label="Every (beats)"
          min={0.25}
          max={64}
          step={0.25}
          value={draft.every}
          set={(every, commit) => edit({ every }, commit)}
        />
      )}
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
