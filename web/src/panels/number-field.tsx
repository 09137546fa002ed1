// A number field of the modulation editor (mod-fields.tsx, and the Hz of a rate in modulation.tsx).
import { useState } from 'preact/hooks';

/**
 * A number field: what is typed stays as typed while the field is edited (live values re-render the editor many
 * times a second), and the value applies on commit (Enter or leaving the field), so "150" does not send 1 and 15.
 */
export function NumberField(props: {
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
