// Effects: the chain with enable toggles, reorder by dragging the handle (or arrow keys on it), remove, per-input
// controls, reset and save-as-preset; an add menu from the catalog with a search.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { call, problem } from '../api';
import type { ApiPaths, Op, RequestBody } from '../api-shapes';
import { changed, refreshLists } from '../live';
import { matches } from '../names';
import { notify, useLive, type LiveState } from '../store';
import { Control, type Input } from './controls';

type Posts = ApiPaths<'POST'>;

/** One chain change; the answer's body, or null (the problem shown) when it was refused. */
async function post<P extends Posts>(path: P, body: RequestBody<Op<'POST', P>>) {
  const r = await call('POST', path, { body });
  changed();
  if (r.ok) return r.body;
  notify(problem(r));
  return null;
}

/** `params` is the latest `params` topic: the open effect's values follow it, whoever changed them. */
function Params(props: { index: number; params: LiveState['params'] }) {
  const [inputs, setInputs] = useState<Input[] | null>(null);
  const [error, setError] = useState('');
  const [preset, setPreset] = useState('');
  const load = useCallback(async () => {
    const r = await call('GET', '/effects/{index}', { path: { index: String(props.index) } });
    if (r.ok) setInputs(r.body.inputs ?? []);
    else setError(problem(r));
  }, [props.index]);
  useEffect(() => {
    const item = props.params?.items.find((it) => it.index === props.index);
    // Before the first params event (or on a server without the socket) the values are read once.
    if (item) setInputs(item.inputs ?? []);
    else void load();
  }, [load, props.params, props.index]);
  const send = useCallback(
    async (name: string, value: unknown) => {
      const body = await post('/effects/params', { index: props.index, values: { [name]: value } });
      if (body?.current?.inputs) setInputs(body.current.inputs);
    },
    [props.index],
  );
  if (error !== '') return <p class="hint">{error}</p>;
  if (inputs === null) return <p class="hint">Loading…</p>;
  const prefix = `fx${props.index}`;
  return (
    <div class="params">
      {inputs.length === 0 && <p class="hint">No inputs.</p>}
      {inputs.map((i) => (
        <Control key={i.name} input={i} idPrefix={prefix} send={send} />
      ))}
      <div class="row wrap">
        <button
          type="button"
          onClick={async () => {
            const b = await post('/effects/reset', { index: props.index });
            if (b) void load();
          }}
        >
          Reset
        </button>
        <form
          class="row grow"
          onSubmit={async (e) => {
            e.preventDefault();
            if (preset.trim() === '') return;
            const b = await post('/presets/save', { index: props.index, name: preset.trim() });
            if (b) {
              notify(`Saved preset ${b.preset?.name ?? preset}`);
              setPreset('');
              void refreshLists();
            }
          }}
        >
          <label class="field grow">
            <span>Preset name</span>
            <input value={preset} onInput={(e) => setPreset(e.currentTarget.value)} maxLength={128} />
          </label>
          <button type="submit">Save as preset</button>
        </form>
      </div>
    </div>
  );
}

function Chain() {
  const chain = useLive((s) => s.chain);
  const params = useLive((s) => s.params);
  const [open, setOpen] = useState<Record<string, boolean>>({});
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
        const key = `${fx.index}`;
        const isOpen = open[key] === true;
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
                onClick={() => setOpen({ ...open, [key]: !isOpen })}
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

function AddMenu() {
  const catalog = useLive((s) => s.catalog);
  const chain = useLive((s) => s.chain);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const inChain = new Set(chain.items.map((i) => i.type));
  const shown = catalog.filter((c) => query.trim() === '' || matches(c.name, query) || matches(c.type, query));
  return (
    <div class="addmenu">
      <button type="button" class="primary" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="add-effect">
        Add effect
      </button>
      {open && (
        <div class="menu">
          <label class="field">
            <span>Find an effect</span>
            <input
              type="search"
              value={query}
              onInput={(e) => setQuery(e.currentTarget.value)}
              data-testid="effect-search"
              // biome-ignore lint/a11y/noAutofocus: the operator just opened the picker to type a name
              autoFocus
            />
          </label>
          <ul class="catalog">
            {shown.map((c) => (
              <li key={c.type}>
                <button
                  type="button"
                  data-type={c.type}
                  onClick={async () => {
                    const b = await post('/effects/add', { type: c.type });
                    if (b) setOpen(false);
                  }}
                >
                  {c.name}
                  {inChain.has(c.type) ? ' •' : ''}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

export function EffectsPanel() {
  return (
    <section class="panel" aria-labelledby="effects-h">
      <h2 id="effects-h">Effects</h2>
      <Chain />
      <AddMenu />
    </section>
  );
}
