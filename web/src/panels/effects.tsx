// Effects: the chain with enable toggles, reorder by dragging the handle (or arrow keys on it), remove, per-input
// controls (effect-params.tsx, shown unless folded: folds.ts), a freeze button for every modulated input; the add
// menu is the effect picker (effect-picker.tsx).
import { useRef, useState } from 'preact/hooks';
import { setFolded, useFolds } from '../folds';
import { useLive } from '../store';
import { FreezeButton } from './mod-live';
import { Params, post } from './effect-params';
import { AddMenu } from './effect-picker';

function Chain() {
  const chain = useLive((s) => s.chain);
  const params = useLive((s) => s.params);
  const folded = useFolds();
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const move = async (index: number, to: number): Promise<void> => {
    if (to < 1 || to > chain.items.length || to === index) return;
    await post('/effects/move', { index, to });
    requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-index="${to}"] .handle`)?.focus());
  };
  const targetAt = (y: number): number => {
    const rows = [...(list.current?.children ?? [])] as HTMLElement[];
    let to = rows.length;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!.getBoundingClientRect();
      if (y < r.top + r.height / 2) {
        to = i + 1;
        break;
      }
    }
    return to;
  };
  if (chain.items.length === 0)
    return (
      <p class="hint" data-testid="chain-empty">
        The chain is empty.
      </p>
    );
  return (
    <ol class="chain" ref={list} data-testid="chain">
      {chain.items.map((fx) => {
        const isOpen = !folded(fx.type);
        const target =
          drag && drag.from === fx.index ? ' dragging' : drag && drag.to === fx.index && drag.from !== fx.index ? ' droptarget' : '';
        return (
          <li key={`${fx.index}-${fx.type}`} data-index={fx.index} data-type={fx.type} class={`fx${target}`}>
            <div class="row">
              <button
                type="button"
                class="handle"
                aria-label={`Move ${fx.name} (position ${fx.index} of ${chain.items.length}); drag, or arrow keys`}
                onPointerDown={(e) => {
                  (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
                  setDrag({ from: fx.index, to: fx.index });
                }}
                onPointerMove={(e) => {
                  if (drag && (e.currentTarget as HTMLElement).hasPointerCapture(e.pointerId)) {
                    const to = Math.min(targetAt(e.clientY), chain.items.length);
                    if (to !== drag.to) setDrag({ from: drag.from, to });
                  }
                }}
                onPointerUp={(e) => {
                  const d = drag;
                  setDrag(null);
                  if (d) void move(d.from, Math.min(targetAt(e.clientY), chain.items.length));
                }}
                onPointerCancel={() => setDrag(null)}
                onKeyDown={(e) => {
                  if (e.key === 'ArrowUp') {
                    e.preventDefault();
                    void move(fx.index, fx.index - 1);
                  } else if (e.key === 'ArrowDown') {
                    e.preventDefault();
                    void move(fx.index, fx.index + 1);
                  }
                }}
              >
                ⠿
              </button>
              <label class="toggle grow">
                <input
                  type="checkbox"
                  checked={fx.enabled}
                  data-testid={`enabled-${fx.index}`}
                  onChange={(e) => void post('/effects/enabled', { index: fx.index, enabled: e.currentTarget.checked })}
                />
                <span>
                  {fx.index}. {fx.name}
                  {fx.presetId ? <small> ({fx.presetId})</small> : null}
                </span>
              </label>
              <button
                type="button"
                aria-expanded={isOpen}
                aria-label={`Parameters of ${fx.name}`}
                onClick={() => setFolded(fx.type, isOpen)}
              >
                ⚙
              </button>
              <button
                type="button"
                class="danger"
                aria-label={`Remove ${fx.name}`}
                onClick={() => void post('/effects/remove', { index: fx.index })}
              >
                ✕
              </button>
            </div>
            {isOpen && <Params index={fx.index} params={params} />}
          </li>
        );
      })}
    </ol>
  );
}

export function EffectsPanel() {
  return (
    <section class="panel" aria-labelledby="effects-h">
      <div class="row">
        <h2 id="effects-h" class="grow">
          Effects
        </h2>
        <FreezeButton />
      </div>
      <Chain />
      <AddMenu />
    </section>
  );
}
