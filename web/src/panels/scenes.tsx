// Scene row: the saved scenes as buttons with their picture; a tap recalls one with the mixer's transition, a name
// and Save store the whole stack, × deletes one after a confirm.
import { useEffect, useState } from 'preact/hooks';
import { API, call, problem } from '../api';
import type { Got } from '../api-shapes';
import { changed } from '../live';
import { live, notify, useLive } from '../store';
import { thumb } from '../thumbs';
import { want } from '../wanted';
import { readLayers, readScenes } from './layers-api';

type Scene = Got<'/scenes'>['scenes'][number];
const NAME_MAX = 64;

function SceneThumb(props: { id: string; savedAt: string }) {
  const [src, setSrc] = useState('');
  useEffect(() => {
    let alive = true;
    // The save time as the wanted tag: a scene saved again under its name revalidates its picture.
    void thumb(`${API}/thumbnails/scene/${encodeURIComponent(props.id)}`, props.savedAt, () => alive).then((s) => alive && setSrc(s));
    return () => {
      alive = false;
    };
  }, [props.id, props.savedAt]);
  return src === '' ? <span class="thumb" aria-hidden="true" /> : <img class="thumb" src={src} alt="" data-testid="scene-thumb" />;
}

export function ScenesPanel() {
  const scenes = useLive((s) => s.scenes);
  const link = useLive((s) => s.link);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    want('scenes', true);
    return () => want('scenes', false);
  }, []);
  const up = link === 'live' || link === 'fallback';
  useEffect(() => {
    if (up) void readScenes();
  }, [up]);

  const save = async (): Promise<void> => {
    const n = name.trim();
    if (n === '') return;
    const r = await call('POST', '/scenes/save', { body: { name: n } });
    changed();
    if (!r.ok) return notify(problem(r));
    setName('');
    await readScenes();
  };
  const recall = async (s: Scene): Promise<void> => {
    // The mixer's transition (GET /mix, the `mix` topic): a scene changes the picture the way a take would.
    const t = live().mix?.transition;
    setBusy(s.id);
    const r = await call('POST', '/scenes/recall', {
      body: { id: s.id, ...(t ? { transition: t.type, durationMs: t.durationMs } : {}) },
    });
    setBusy(null);
    changed();
    if (!r.ok) return notify(problem(r));
    await readLayers();
  };
  const remove = async (s: Scene): Promise<void> => {
    if (!window.confirm(`Delete scene ${s.name}?`)) return;
    const r = await call('POST', '/scenes/delete', { body: { id: s.id } });
    changed();
    if (!r.ok) return notify(problem(r));
    await readScenes();
  };

  const list = scenes?.scenes ?? [];
  // A full list still takes a save under an existing name (it replaces that scene).
  const full = scenes !== null && list.length >= scenes.max && !list.some((s) => s.name.toLowerCase() === name.trim().toLowerCase());
  return (
    <section class="panel" aria-labelledby="scenes-h" data-testid="scenes-panel">
      <h2 id="scenes-h">Scenes</h2>
      {list.length === 0 && <p class="hint">No scenes saved yet.</p>}
      <ul class="scenes" data-testid="scene-row">
        {list.map((s) => (
          <li key={s.id} class="scene">
            <button
              type="button"
              class="scene-go"
              data-testid="scene-button"
              data-id={s.id}
              data-name={s.name}
              aria-busy={busy === s.id}
              disabled={busy !== null}
              title={`Recall ${s.name}`}
              onClick={() => void recall(s)}
            >
              <SceneThumb id={s.id} savedAt={s.savedAt} />
              <span class="scene-name">{s.name}</span>
            </button>
            <button
              type="button"
              class="scene-del"
              aria-label={`Delete scene ${s.name}`}
              data-testid="scene-delete"
              onClick={() => void remove(s)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <input
          class="grow"
          aria-label="Scene name"
          placeholder="Scene name"
          maxLength={NAME_MAX}
          value={name}
          data-testid="scene-name"
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <button
          type="submit"
          data-testid="scene-save"
          disabled={name.trim() === '' || full}
          title={full ? 'No room for more scenes' : 'Save the whole stack'}
        >
          Save scene
        </button>
      </form>
    </section>
  );
}
