// The map's number fields and switches: the slice of the program shown, the soft edges, the test card. Each change
// goes to the server at once; the fields show the map it accepted, and what is being typed until then.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { OutputMap } from './output-map-api';
import { sliceOf, WHOLE } from './output-map-api';

type Change = Partial<OutputMap>;
const SLICE = ['x', 'y', 'w', 'h'] as const;
const EDGES = ['left', 'right', 'top', 'bottom'] as const;
const show = (v: number | undefined): string => (v === undefined ? '' : String(+v.toFixed(4)));

/**
 * What the operator set, shown until the accepted value moves or a refusal comes: the rows above redraw often (the
 * outputs topic), and a redraw would otherwise put the accepted value back under the typing or the click. A field
 * still focused keeps its text through a refusal, so it can be corrected.
 */
function usePending<T>(accepted: unknown, refused: number, keepFocused: { current: HTMLElement | null } | null) {
  const [pending, setPending] = useState<T | null>(null);
  useEffect(() => setPending(null), [accepted]);
  useEffect(() => {
    if (!keepFocused || document.activeElement !== keepFocused.current) setPending(null);
  }, [refused]);
  return [pending, setPending] as const;
}

interface NumProps {
  id: string;
  label: string;
  value: number | undefined;
  /** Moves at each refusal. */
  refused: number;
  placeholder?: string;
  set: (v: number | null) => void;
}

function Num(props: NumProps) {
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = usePending<string>(props.value, props.refused, input);
  return (
    <label class="field">
      {props.label}
      <input
        ref={input}
        type="number"
        step="0.01"
        inputMode="decimal"
        value={text ?? show(props.value)}
        placeholder={props.placeholder}
        data-testid={`om-${props.id}`}
        onInput={(e) => setText(e.currentTarget.value)}
        // Sent on change (Enter, leaving the field, a spinner step), not on every key: a half-typed number is no map.
        onChange={(e) => {
          const t = e.currentTarget.value.trim();
          props.set(t === '' || !Number.isFinite(Number(t)) ? null : Number(t));
        }}
      />
    </label>
  );
}

export function MapFields({ map, refused, change }: { map: OutputMap | null; refused: number; change: (c: Change) => void }) {
  const slice = sliceOf(map);
  const blend = map?.blend ?? {};
  const card = map?.testCard === true;
  const [cardSet, setCard] = usePending<boolean>(card, refused, null);
  const setSlice = (k: (typeof SLICE)[number], v: number | null): void => {
    // An empty field is no value the slice can take: the field shows the accepted one again.
    const next = { ...slice, [k]: v ?? slice[k] };
    const whole = SLICE.every((s) => next[s] === WHOLE[s]);
    change({ slice: whole ? undefined : next });
  };
  const setBlend = (k: (typeof EDGES)[number] | 'gamma', v: number | null): void => {
    const next: Record<string, number | undefined> = { ...blend, [k]: v === null || (k !== 'gamma' && v === 0) ? undefined : v };
    for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
    change({ blend: Object.keys(next).length > 0 ? next : undefined });
  };
  return (
    <>
      <fieldset class="om-set">
        <legend>Slice of the program (shares 0–1)</legend>
        {SLICE.map((k) => (
          <Num key={k} id={`slice-${k}`} label={k} value={slice[k]} refused={refused} set={(v) => setSlice(k, v)} />
        ))}
      </fieldset>
      <fieldset class="om-set">
        <legend>Soft edges (share of the slice, 0–0.5)</legend>
        {EDGES.map((k) => (
          <Num key={k} id={`blend-${k}`} label={k} value={blend[k] ?? 0} refused={refused} set={(v) => setBlend(k, v)} />
        ))}
        <Num id="blend-gamma" label="gamma" value={blend.gamma} placeholder="2.2" refused={refused} set={(v) => setBlend('gamma', v)} />
      </fieldset>
      <label class="toggle">
        <input
          type="checkbox"
          checked={cardSet ?? card}
          data-testid="om-testcard"
          onChange={(e) => {
            setCard(e.currentTarget.checked);
            change({ testCard: e.currentTarget.checked || undefined });
          }}
        />
        <span>Test card instead of the program</span>
      </label>
    </>
  );
}
