// Scene row: the saved scenes as buttons with their picture; a tap recalls one with its own transition (⇄, kept in
// this browser) or else the default one (the mixer's), a name and Save store the whole stack, × deletes one after a
// confirm.
import { useEffect, useState } from 'preact/hooks';
import { API, call, problem } from '../api';
import type { Got } from '../api-shapes';
import { changed } from '../live';
import { notify, useLive } from '../store';
import { thumb } from '../thumbs';
import { want } from '../wanted';
import { readLayers, readScenes } from './layers-api';
import { sceneTransition, setSceneTransition, useSceneTransition } from '../scene-transitions';
import { currentTransition, useTransition } from '../transition';
import { TransitionFields } from './take';

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
  const [editing, setEditing] = useState<string | null>(null);
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
    // The scene's own transition, else the default (the mixer's): a scene changes the picture the way a take would.
    const t = sceneTransition(s.id) ?? currentTransition();
    setBusy(s.id);
    const r = await call('POST', '/scenes/recall', { body: { id: s.id, transition: t.type, durationMs: t.durationMs } });
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
              <OwnLabel id={s.id} />
            </button>
            <button
              type="button"
              class="scene-edit"
              aria-label={`Transition of scene ${s.name}`}
              aria-expanded={editing === s.id}
              data-testid="scene-edit"
              onClick={() => setEditing(editing === s.id ? null : s.id)}
            >
              ⇄
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
      {editing !== null && list.some((s) => s.id === editing) && (
        <SceneTransitionEditor scene={list.find((s) => s.id === editing)!} close={() => setEditing(null)} />
      )}
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

/** The scene's own transition on its button, when it has one. */
function OwnLabel(props: { id: string }) {
  const own = useSceneTransition(props.id);
  if (own === null) return null;
  return (
    <span class="scene-own" data-testid="scene-own">
      {own.type} {own.durationMs} ms
    </span>
  );
}

/** Edits one scene's own transition; "Default" clears it, so the button follows the default transition again. */
function SceneTransitionEditor(props: { scene: Scene; close: () => void }) {
  const own = useSceneTransition(props.scene.id);
  const fallback = useTransition();
  const value = own ?? { type: '', durationMs: fallback.durationMs };
  return (
    <fieldset class="scene-editor row wrap" data-testid="scene-editor" data-id={props.scene.id}>
      <legend>Transition of {props.scene.name}</legend>
      <TransitionFields
        value={value}
        idPrefix="scene-"
        extra={<option value="">Default ({fallback.type})</option>}
        set={(c) => {
          const type = c.type ?? (value.type === '' ? fallback.type : value.type);
          if (type === '') setSceneTransition(props.scene.id, null);
          else setSceneTransition(props.scene.id, { type, durationMs: c.durationMs ?? value.durationMs });
        }}
      />
      <button type="button" data-testid="scene-editor-done" onClick={props.close}>
        Done
      </button>
    </fieldset>
  );
}
