// One chain item's inputs: a control (with its modulation) per input, reset and save-as-preset; and the chain's
// change call, which shows a refused change in the notice line.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, problem } from '../api';
import type { ApiPaths, Op, RequestBody } from '../api-shapes';
import { changed, refreshLists } from '../live';
import { notify, useLive, type LiveState } from '../store';
import { Control, type Input } from './controls';
import { useWantLive } from './mod-live';
import { modulateEffect, type Modulator } from '../mod-api';

type Posts = ApiPaths<'POST'>;

/** One chain change; the answer's body, or null (the problem shown) when it was refused. */
export async function post<P extends Posts>(path: P, body: RequestBody<Op<'POST', P>>) {
  const r = await call('POST', path, { body });
  changed();
  if (r.ok) return r.body;
  notify(problem(r));
  return null;
}

/** `params` is the latest `params` topic: the open effect's values follow it, whoever changed them. */
export function Params(props: { index: number; params: LiveState['params'] }) {
  const [inputs, setInputs] = useState<Input[] | null>(null);
  const [error, setError] = useState('');
  const [preset, setPreset] = useState('');
  const load = useCallback(async () => {
    const r = await call('GET', '/effects/{index}', { path: { index: String(props.index) } });
    if (r.ok) setInputs(r.body.inputs ?? []);
    else setError(problem(r));
  }, [props.index]);
  const live = useLive((s) => s.live);
  useWantLive(inputs?.some((i) => i.modulator) ?? false);
  const modulate = useCallback(
    async (name: string, modulator: Modulator | null, component?: string): Promise<boolean> => {
      const r = await modulateEffect(props.index, name, modulator, component);
      changed();
      if (!r.ok) {
        notify(problem(r));
        return false;
      }
      void load();
      return true;
    },
    [props.index, load],
  );
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
        <Control
          key={i.name}
          input={i}
          idPrefix={prefix}
          send={send}
          mod={{
            live: live?.effects.find((e) => e.index === props.index && e.input === i.name && e.component === undefined)?.live ?? i.live,
            set: modulate,
          }}
        />
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
