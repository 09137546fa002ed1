// Audio inputs managed live: every input with what it reads and where it comes from (the `audioInputs` topic),
// Use to select one, and a form that adds or edits an added input (a stream URL, a media library file, a capture
// device, the program's sound) with the server's refusal shown next to the field it names.
import { useEffect, useState } from 'preact/hooks';
import { call, type Problem, problem } from '../api';
import type { Got, Op, RequestBody } from '../api-shapes';
import { changed } from '../live';
import { notify, update, useLive } from '../store';
import { want } from '../wanted';

type Item = Got<'/audio/inputs'>['items'][number];
type AddBody = RequestBody<Op<'POST', '/audio/inputs/add'>>;
type Kind = AddBody['kind'];

const KINDS: Array<[Kind, string]> = [
  ['stream', 'Stream URL'],
  ['file', 'Library file'],
  ['alsa', 'ALSA device'],
  ['pulse', 'PulseAudio source'],
  ['program', 'Program audio'],
];
const TARGET: Record<Kind, 'url' | 'file' | 'device' | null> = {
  stream: 'url',
  file: 'file',
  alsa: 'device',
  pulse: 'device',
  program: null,
};
const HINT: Record<string, string> = {
  url: 'http://radio.example:8000/live',
  file: 'loops/tone.wav or a media id',
  device: 'plughw:CARD=USB,DEV=0',
};

async function readInputs(): Promise<void> {
  const r = await call('GET', '/audio/inputs');
  if (r.ok) update({ audioInputs: r.body });
}

/** The field a refusal names (`details.field`), so the message sits next to it; null puts it under the form. */
const fieldOf = (p: Problem | null): string | null => (typeof p?.details?.field === 'string' ? p.details.field : null);

export function AudioInputs(props: { onChange?: () => void }) {
  const data = useLive((s) => s.audioInputs);
  const [editing, setEditing] = useState<string | null>(null);
  const [kind, setKind] = useState<Kind>('stream');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [refusal, setRefusal] = useState<{ field: string | null; message: string } | null>(null);

  useEffect(() => {
    want('audioInputs', true);
    void readInputs();
    return () => want('audioInputs', false);
  }, []);
  // Another client's change reaches the selector above too.
  useEffect(() => props.onChange?.(), [data]);

  const field = TARGET[kind];
  const reset = (): void => {
    setEditing(null);
    setName('');
    setTarget('');
    setRefusal(null);
  };
  const after = async (): Promise<void> => {
    changed();
    await readInputs();
  };
  const done = async (r: { ok: boolean; status: number; body: unknown }): Promise<boolean> => {
    await after();
    if (r.ok) return true;
    const p = r.body as Problem | null;
    setRefusal({ field: fieldOf(p), message: p?.message ?? `HTTP ${r.status}` });
    return false;
  };
  const submit = async (): Promise<void> => {
    setRefusal(null);
    const body: AddBody = { kind };
    if (name.trim() !== '') body.name = name.trim();
    if (field !== null) body[field] = target.trim();
    const r =
      editing === null
        ? await call('POST', '/audio/inputs/add', { body })
        : await call('POST', '/audio/inputs/edit', { body: { ...body, id: editing } });
    if (await done(r)) reset();
  };
  const edit = (i: Item): void => {
    setEditing(i.id);
    setKind(i.kind as Kind);
    setName(i.name);
    setTarget(i.target ?? '');
    setRefusal(null);
  };
  const use = async (id: string): Promise<void> => {
    const r = await call('POST', '/audio/select', { body: { id } });
    if (!r.ok) notify(problem(r));
    await after();
  };
  const remove = async (id: string): Promise<void> => {
    const r = await call('POST', '/audio/inputs/remove', { body: { id } });
    if (!r.ok) notify(problem(r));
    else if (r.body.detached) notify(`${r.body.removed.name} was the audio input: no audio input is selected now`);
    if (editing === id) reset();
    await after();
  };
  const error = (f: string | null) =>
    refusal !== null && refusal.field === f ? (
      <span class="error" data-testid="audio-input-error" data-field={f ?? ''}>
        {refusal.message}
      </span>
    ) : null;
  const devices = (data?.items ?? []).filter((i) => i.kind === kind && i.origin === 'discovered');

  return (
    <div class="audio-inputs" data-testid="audio-inputs">
      <ul>
        {(data?.items ?? []).map((i) => (
          <li key={i.id} data-id={i.id} data-origin={i.origin} data-selected={String(i.selected)} class="row wrap">
            <strong class="grow">{i.name}</strong>
            <small>
              {i.kind}
              {i.target !== null ? `: ${i.target}` : ''} ({i.origin}
              {i.available ? '' : ', not present'})
            </small>
            <button type="button" class="use" disabled={i.selected || !i.available} onClick={() => void use(i.id)}>
              {i.selected ? 'In use' : 'Use'}
            </button>
            {i.origin === 'added' && (
              <>
                <button type="button" class="edit" onClick={() => edit(i)}>
                  Edit
                </button>
                <button type="button" class="remove" onClick={() => void remove(i.id)}>
                  Remove
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <form
        class="row wrap"
        data-testid="audio-input-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label class="field">
          <span>Kind</span>
          <select value={kind} data-testid="audio-input-kind" onChange={(e) => setKind(e.currentTarget.value as Kind)}>
            {KINDS.map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
          {error('kind')}
        </label>
        <label class="field">
          <span>Name</span>
          <input value={name} data-testid="audio-input-name" maxLength={128} onInput={(e) => setName(e.currentTarget.value)} />
          {error('name')}
        </label>
        {field !== null && (
          <label class="field grow">
            <span>{field === 'url' ? 'URL' : field === 'file' ? 'File' : 'Device'}</span>
            <input
              value={target}
              data-testid="audio-input-target"
              placeholder={HINT[field]}
              list={field === 'device' ? 'audio-devices' : undefined}
              onInput={(e) => setTarget(e.currentTarget.value)}
            />
            <datalist id="audio-devices">
              {devices.map((d) => (
                <option key={d.id} value={d.target ?? ''} />
              ))}
            </datalist>
            {error(field)}
          </label>
        )}
        <button type="submit" class="primary" data-testid="audio-input-submit">
          {editing === null ? 'Add input' : `Save ${editing}`}
        </button>
        {editing !== null && (
          <button type="button" onClick={reset}>
            Cancel
          </button>
        )}
        {refusal !== null && (refusal.field === null || !['kind', 'name', field].includes(refusal.field)) && (
          <span class="error" data-testid="audio-input-error" data-field={refusal.field ?? ''}>
            {refusal.message}
          </span>
        )}
      </form>
    </div>
  );
}
