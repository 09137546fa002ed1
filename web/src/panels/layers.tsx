// Layer strips: one per layer, top layer first as a stack reads, each with its picture, name and source, an opacity
// fader, blend mode, mute and solo, select (the layer /sources, /mix and /transport address) and remove; add puts a layer on top.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Got } from '../api-shapes';
import { useLive } from '../store';
import { paced } from '../throttle';
import { want } from '../wanted';
import { LayerThumb } from './layer-thumb';
import { layerPost, readLayers } from './layers-api';

type Layer = Got<'/layers'>['layers'][number];

/** Fader values go out at most this often while dragging; the value at release always goes last. */
const FADER_GAP_MS = 80;

export function LayersPanel() {
  const stack = useLive((s) => s.layers);
  const link = useLive((s) => s.link);
  useEffect(() => {
    want('layers', true);
    return () => want('layers', false);
  }, []);
  // The topic sends changes only: the stack is read once the page has its key and state, and after a reconnect.
  const up = link === 'live' || link === 'fallback';
  useEffect(() => {
    if (up) void readLayers();
  }, [up]);
  const layers = stack?.layers ?? [];
  const full = stack !== null && layers.length >= stack.max;
  return (
    <section class="panel" aria-labelledby="layers-h" data-testid="layers-panel">
      <div class="row">
        <h2 id="layers-h" class="grow">
          Layers{' '}
          <span class="hint">
            {layers.length}
            {stack ? ` of ${stack.max}` : ''}
          </span>
        </h2>
        <button
          type="button"
          data-testid="layer-add"
          disabled={stack === null || full}
          title={full ? 'The stack is full (render.maxLayers)' : 'Add a layer on top'}
          onClick={() => void layerPost('/layers/add', {})}
        >
          + Layer
        </button>
      </div>
      <ol class="strips" data-testid="layer-strips">
        {[...layers].reverse().map((l) => (
          <Strip key={l.layer} layer={l} blends={stack?.blends ?? []} only={layers.length === 1} />
        ))}
      </ol>
    </section>
  );
}

function Strip(props: { layer: Layer; blends: string[]; only: boolean }) {
  const l = props.layer;
  const n = l.layer;
  const [drag, setDrag] = useState<number | null>(null);
  const send = useMemo(() => paced((value: number) => layerPost('/layers/opacity', { layer: n, value }), FADER_GAP_MS), [n]);
  const opacity = drag ?? l.opacity;
  const blends = props.blends.includes(l.blend) ? props.blends : [l.blend, ...props.blends];
  const title = l.source.name === '' ? 'empty' : l.source.name;
  return (
    <li
      class={`strip${l.selected ? ' selected' : ''}`}
      data-testid="layer-strip"
      data-layer={n}
      aria-current={l.selected ? 'true' : undefined}
    >
      <div class="row">
        <LayerThumb position={n} />
        <span class="grow names">
          <strong data-testid="layer-name">{l.name}</strong>
          <span class="hint" data-testid="layer-source">
            {title}
          </span>
        </span>
        <button
          type="button"
          class={l.selected ? 'primary' : ''}
          aria-pressed={l.selected}
          data-testid="layer-select"
          onClick={() => void layerPost('/layers/select', { layer: n })}
        >
          {l.selected ? 'Selected' : 'Select'}
        </button>
      </div>
      <label class="slider">
        <span>Opacity</span>
        <input
          type="range"
          min={0}
          max={1}
          step={0.01}
          value={opacity}
          data-testid="layer-opacity"
          onInput={(e) => {
            const v = Number(e.currentTarget.value);
            setDrag(v);
            send(v);
          }}
          onChange={(e) => {
            send(Number(e.currentTarget.value));
            setTimeout(() => setDrag(null), 500);
          }}
        />
        <output>{Math.round(opacity * 100)}%</output>
      </label>
      <div class="row wrap">
        <select
          class="grow"
          aria-label={`Blend mode of ${l.name}`}
          data-testid="layer-blend"
          value={l.blend}
          onChange={(e) => void layerPost('/layers/blend', { layer: n, mode: e.currentTarget.value })}
        >
          {blends.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
        <button
          type="button"
          class={l.mute ? 'danger on' : 'danger'}
          aria-pressed={l.mute}
          data-testid="layer-mute"
          onClick={() => void layerPost('/layers/mute', { layer: n, enabled: !l.mute })}
        >
          Mute
        </button>
        <button
          type="button"
          class={l.solo ? 'on' : ''}
          aria-pressed={l.solo}
          data-testid="layer-solo"
          onClick={() => void layerPost('/layers/solo', { layer: n, enabled: !l.solo })}
        >
          Solo
        </button>
        <button
          type="button"
          aria-label={`Remove ${l.name}`}
          data-testid="layer-remove"
          disabled={props.only}
          onClick={() => {
            if (window.confirm(`Remove layer ${n} (${l.name})? Its source and effects go with it.`))
              void layerPost('/layers/remove', { layer: n });
          }}
        >
          ×
        </button>
      </div>
    </li>
  );
}
