// One control per ISF input type, generated from the input descriptions the server gives (issue 16):
// float slider with its value, bool checkbox, long select, color picker, point2D XY pad, event button; float, long
// and bool inputs get a modulation control and show their live (modulated) value; point2D and color inputs get one
// per component.
import { useMemo, useState } from 'preact/hooks';
import type { Got } from '../api-shapes';
import { latest } from '../throttle';
import { ModFor, type Modulation } from './modulation';
import { pickModulator } from '../mod-api';

/** One ISF input with its value, as GET /effects/{index} and GET /sources/current/params describe it. */
export type Input = Got<'/effects/{index}'>['inputs'][number];

const hex2 = (n: number): string =>
  Math.round(Math.max(0, Math.min(1, n)) * 255)
    .toString(16)
    .padStart(2, '0');
export function toHex(v: unknown): string {
  if (typeof v === 'string' && /^#[0-9a-f]{6}/i.test(v)) return v.slice(0, 7).toLowerCase();
  if (Array.isArray(v) && v.length >= 3) return `#${hex2(Number(v[0]))}${hex2(Number(v[1]))}${hex2(Number(v[2]))}`;
  return '#000000';
}

function XYPad(props: {
  id: string;
  label: string;
  value: [number, number];
  min: [number, number];
  max: [number, number];
  set: (v: [number, number]) => void;
}) {
  const { min, max, value } = props;
  const frac = (i: 0 | 1): number => (max[i] === min[i] ? 0 : (value[i] - min[i]) / (max[i] - min[i]));
  const fromEvent = (e: PointerEvent): void => {
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    const fx = Math.max(0, Math.min(1, (e.clientX - r.left) / r.width));
    const fy = Math.max(0, Math.min(1, 1 - (e.clientY - r.top) / r.height));
    props.set([min[0] + fx * (max[0] - min[0]), min[1] + fy * (max[1] - min[1])]);
  };
  const step = (i: 0 | 1, d: number): void => {
    const next: [number, number] = [value[0], value[1]];
    next[i] = Math.max(min[i], Math.min(max[i], value[i] + d * (max[i] - min[i]) * 0.02));
    props.set(next);
  };
  return (
    <div
      class="xypad"
      role="slider"
      tabIndex={0}
      aria-label={`${props.label} (arrow keys move x and y)`}
      aria-valuetext={`x ${value[0].toFixed(2)}, y ${value[1].toFixed(2)}`}
      aria-valuenow={value[0]}
      aria-valuemin={min[0]}
      aria-valuemax={max[0]}
      onPointerDown={(e) => {
        (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
        fromEvent(e);
      }}
      onPointerMove={(e) => {
        if ((e.currentTarget as HTMLElement).hasPointerCapture(e.pointerId)) fromEvent(e);
      }}
      onKeyDown={(e) => {
        const k: Record<string, [0 | 1, number]> = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [1, 1], ArrowDown: [1, -1] };
        const m = k[e.key];
        if (m) {
          e.preventDefault();
          step(m[0], m[1]);
        }
      }}
    >
      <span class="dot" style={{ left: `${frac(0) * 100}%`, top: `${(1 - frac(1)) * 100}%` }} />
    </div>
  );
}

const POINT_PARTS = ['x', 'y'] as const;
const COLOR_PARTS = ['hue', 'saturation', 'brightness'] as const;

/** The ∿ controls of a point2D's or color's components, each with its own modulator. */
function ComponentMods(props: { id: string; label: string; input: Input; components: readonly string[]; mod?: Modulation }) {
  const { mod } = props;
  if (!mod) return null;
  return (
    <span class="row wrap">
      {props.components.map((c) => (
        <span key={c} class="modpart">
          <span class="hint">{c}</span>
          <ModFor id={`${props.id}-${c}`} label={`${props.label} ${c}`} input={props.input} component={c} mod={mod} />
        </span>
      ))}
    </span>
  );
}

export function Control(props: {
  input: Input;
  idPrefix: string;
  send: (name: string, value: unknown) => Promise<void>;
  mod?: Modulation;
}) {
  const { mod } = props;
  const { input } = props;
  const id = `${props.idPrefix}-${input.name}`;
  const label = input.label || input.name;
  const modulator = pickModulator(input.modulator);
  const modButton = mod ? <ModFor id={id} label={label} input={input} mod={mod} /> : null;
  // The applied value of a recent frame, shown while a modulator runs.
  const live = modulator !== null ? mod?.live : undefined;
  const [local, setLocal] = useState<unknown>(undefined);
  const push = useMemo(() => latest((v: unknown) => props.send(input.name, v)), [input.name, props.send]);
  const value = local ?? input.value ?? input.default;
  const set = (v: unknown): void => {
    setLocal(v);
    push(v);
  };
  const settle = (): void => void setTimeout(() => setLocal(undefined), 400);
  switch (input.type) {
    case 'float': {
      const min = Number(input.min ?? 0);
      const max = Number(input.max ?? 1);
      const v = Number(value ?? min);
      const at = typeof live === 'number' && max > min ? Math.max(0, Math.min(1, (live - min) / (max - min))) : null;
      return (
        <div class={`control slider${mod ? ' modulatable' : ''}`}>
          <label for={id}>{label}</label>
          <div class="track">
            {/* step "any": a value set elsewhere shows as it is (not snapped to a step); arrow keys move 1% of the range. */}
            <input
              id={id}
              type="range"
              min={min}
              max={max}
              step="any"
              value={v}
              onInput={(e) => set(Number(e.currentTarget.value))}
              onChange={settle}
            />
            {at !== null && (
              <span
                class="livemark"
                data-testid={`${id}-live`}
                data-value={String(live)}
                style={{ left: `${at * 100}%` }}
                aria-hidden="true"
              />
            )}
          </div>
          <output for={id}>{typeof live === 'number' ? live.toFixed(2) : v.toFixed(2)}</output>
          {modButton}
        </div>
      );
    }
    case 'bool':
      return (
        <div class={`control check${mod ? ' modulatable' : ''}`}>
          <input
            id={id}
            type="checkbox"
            checked={Boolean(value)}
            onChange={(e) => {
              set(e.currentTarget.checked);
              settle();
            }}
          />
          <label for={id}>{label}</label>
          {live !== undefined && live !== null && (
            <span class="livetext" data-testid={`${id}-live`} data-value={String(live)}>
              {live ? 'on' : 'off'}
            </span>
          )}
          {modButton}
        </div>
      );
    case 'long': {
      const values = input.values ?? [];
      return (
        <div class={`control${mod ? ' modulatable' : ''}`}>
          <label for={id}>{label}</label>
          <select
            id={id}
            value={String(value)}
            onChange={(e) => {
              set(Number(e.currentTarget.value));
              settle();
            }}
          >
            {values.map((v, i) => (
              <option value={String(v)}>{input.labels?.[i] ?? String(v)}</option>
            ))}
          </select>
          {live !== undefined && live !== null && (
            <span class="livetext" data-testid={`${id}-live`} data-value={String(live)}>
              {String(live)}
            </span>
          )}
          {modButton}
        </div>
      );
    }
    case 'color':
      return (
        <div class="control">
          <label for={id}>{label}</label>
          <input id={id} type="color" value={toHex(value)} onInput={(e) => set(e.currentTarget.value.toUpperCase())} onChange={settle} />
          <ComponentMods id={id} label={label} input={input} components={COLOR_PARTS} mod={mod} />
        </div>
      );
    case 'point2D': {
      const v = (Array.isArray(value) ? value : [0, 0]).map(Number) as [number, number];
      const mn = (Array.isArray(input.min) ? input.min : [0, 0]).map(Number) as [number, number];
      const mx = (Array.isArray(input.max) ? input.max : [1, 1]).map(Number) as [number, number];
      return (
        <div class="control">
          <span id={`${id}-l`}>{label}</span>
          <XYPad
            id={id}
            label={label}
            value={v}
            min={mn}
            max={mx}
            set={(p) => {
              set(p);
              settle();
            }}
          />
          <ComponentMods id={id} label={label} input={input} components={POINT_PARTS} mod={mod} />
        </div>
      );
    }
    case 'event':
      return (
        <div class="control">
          <button type="button" onClick={() => push(true)}>
            {label}
          </button>
        </div>
      );
    case 'image':
      // The effect's own input frame (inputImage) or another texture the renderer feeds: nothing to show.
      return null;
    default:
      return (
        <div class="control">
          <span>{label}</span> <span class="hint">({input.type}: not settable)</span>
        </div>
      );
  }
}
