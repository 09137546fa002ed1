// The fixture form: adds one, or changes the one being edited. The server checks the whole patch; its refusal
// (which starts with the field) is shown beside the form and marks that field.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Problem } from '../api';
import { fieldOf, type Fixture, type FixtureBody } from './pixelmap-api';
import { bodyOf, type Draft, draftOf, GEOMETRY, type Kind, newDraft, startOf } from './pixelmap-draft';

const ORDERS: Fixture['colorOrder'][] = ['RGB', 'RBG', 'GRB', 'GBR', 'BRG', 'BGR', 'RGBW', 'GRBW'];
const STARTS: Draft['start'][] = ['top-left', 'top-right', 'bottom-left', 'bottom-right'];

interface Props {
  destinations: string[];
  /** The fixture being edited, or null to add one. */
  editing: Fixture | null;
  save: (body: FixtureBody, id: string | null) => Promise<Problem | null>;
  done: () => void;
}

export function FixtureForm({ destinations, editing, save, done }: Props) {
  const [d, setD] = useState<Draft>(() => newDraft(destinations[0] ?? ''));
  const [error, setError] = useState<Problem | null>(null);
  useEffect(() => {
    setD(editing ? draftOf(editing) : newDraft(destinations[0] ?? ''));
    setError(null);
  }, [editing?.id]);
  const set = (change: Partial<Draft>): void => setD((prev) => ({ ...prev, ...change }));
  const bad = error ? fieldOf(error.message) : null;

  const num = (key: string, label: string, value: string, onValue: (v: string) => void): ComponentChildren => (
    <label class="field" key={key}>
      {label}
      <input
        type="number"
        step="any"
        inputMode="decimal"
        value={value}
        aria-invalid={bad === key || undefined}
        aria-describedby={bad === key ? 'pm-error' : undefined}
        data-testid={`pm-${key.replace('geometry.', '')}`}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    </label>
  );
  const pick = <T extends string>(key: string, label: string, value: T, options: readonly T[], onValue: (v: T) => void) => (
    <label class="field">
      {label}
      <select
        value={value}
        aria-invalid={bad === key || undefined}
        data-testid={`pm-${key === 'geometry' ? 'kind' : key}`}
        onChange={(e) => onValue(e.currentTarget.value as T)}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
  // The fixture's own destination stays choosable even when the config no longer lists it.
  const dests = d.destination === '' || destinations.includes(d.destination) ? destinations : [d.destination, ...destinations];

  const submit = async (): Promise<void> => {
    const problem = await save(bodyOf(d), editing?.id ?? null);
    setError(problem);
    if (problem) return;
    if (editing) done();
    else set({ name: '' });
  };
  return (
    <form
      class="addout pm-form"
      data-testid="pm-form"
      aria-label={editing ? `Edit fixture ${editing.name}` : 'Add a fixture'}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label class="field">
        Name
        <input
          maxLength={64}
          value={d.name}
          aria-invalid={bad === 'name' || undefined}
          data-testid="pm-name"
          onInput={(e) => set({ name: e.currentTarget.value })}
        />
      </label>
      {pick<Kind>('geometry', 'Kind', d.kind, ['strip', 'matrix', 'pixel'], (kind) => set({ kind, g: startOf(kind) }))}
      {GEOMETRY[d.kind].map(([k, label]) => num(`geometry.${k}`, label, d.g[k] ?? '', (v) => set({ g: { ...d.g, [k]: v } })))}
      {d.kind === 'matrix' && (
        <>
          {pick('start', 'First pixel', d.start, STARTS, (start) => set({ start }))}
          {pick('order', 'Wired along', d.order, ['rows', 'columns'] as const, (order) => set({ order }))}
          <label class="toggle">
            <input
              type="checkbox"
              checked={d.serpentine}
              data-testid="pm-serpentine"
              onChange={(e) => set({ serpentine: e.currentTarget.checked })}
            />
            <span>Serpentine</span>
          </label>
        </>
      )}
      {pick('protocol', 'Protocol', d.protocol, ['artnet', 'sacn'] as const, (protocol) =>
        // sACN has no universe 0: a form left at Art-Net's first universe moves to sACN's.
        set({ protocol, universe: protocol === 'sacn' && d.universe === '0' ? '1' : d.universe }),
      )}
      {pick('destination', 'Destination', d.destination, dests, (destination) => set({ destination }))}
      {num('universe', 'Universe', d.universe, (universe) => set({ universe }))}
      {num('address', 'Address', d.address, (address) => set({ address }))}
      {pick('colorOrder', 'Colour order', d.colorOrder, ORDERS, (colorOrder) => set({ colorOrder }))}
      {num('gamma', 'Gamma', d.gamma, (gamma) => set({ gamma }))}
      {num('brightness', 'Brightness (0-1)', d.brightness, (brightness) => set({ brightness }))}
      {pick('sampling', 'Sampling', d.sampling, ['point', 'area'] as const, (sampling) => set({ sampling }))}
      <button type="submit" class="primary" data-testid="pm-submit" disabled={d.name.trim() === ''}>
        {editing ? 'Save fixture' : 'Add fixture'}
      </button>
      {editing && (
        <button type="button" data-testid="pm-cancel" onClick={done}>
          Cancel edit
        </button>
      )}
      {error && (
        <p class="error pm-error" id="pm-error" role="alert" data-testid="pm-error">
          {error.message}
        </p>
      )}
    </form>
  );
}
