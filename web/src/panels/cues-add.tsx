// The cue panel's add form: a name, what fires the cue and one common operation, whose route and body are built
// here so the operator never writes a path or JSON. The server checks the rest and its message goes to the notice line.
import { useState } from 'preact/hooks';
import { useLive } from '../store';
import type { CueAction, CueBody, Trigger } from './cues-api';

type Kind = Trigger['kind'];
type Op = 'none' | 'scene' | 'blackout-on' | 'blackout-off' | 'source';
const NAME_MAX = 64;
const VALUE_LABEL: Record<Kind, string> = {
  manual: '',
  timecode: 'At (HH:MM:SS:FF)',
  follow: 'Seconds after the previous',
  beats: 'Count',
};
const VALUE_START: Record<Kind, string> = { manual: '', timecode: '01:00:00:00', follow: '0.5', beats: '1' };

function trigger(kind: Kind, value: string, unit: 'beat' | 'bar'): Trigger {
  if (kind === 'timecode') return { kind, at: value.trim() };
  if (kind === 'follow') return { kind, delayMs: Math.round(Number(value) * 1000) };
  if (kind === 'beats') return { kind, count: Math.round(Number(value)), unit };
  return { kind: 'manual' };
}

function action(op: Op, target: string): CueAction | null {
  if (op === 'blackout-on' || op === 'blackout-off') return { op: '/global/blackout', body: { enabled: op === 'blackout-on' } };
  if (op === 'scene') return { op: '/scenes/recall', body: { name: target } };
  if (op === 'source') return { op: '/sources/select', body: { id: target.trim() } };
  return null;
}

export function CueAdd(props: { full: boolean; add: (body: CueBody<'/cues/add'>) => Promise<boolean> }) {
  const scenes = useLive((s) => s.scenes)?.scenes ?? [];
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('manual');
  const [value, setValue] = useState('');
  const [unit, setUnit] = useState<'beat' | 'bar'>('bar');
  const [op, setOp] = useState<Op>('none');
  const [target, setTarget] = useState('');
  const needsTarget = op === 'scene' || op === 'source';
  const ready = name.trim() !== '' && (!needsTarget || target.trim() !== '') && !props.full;

  const submit = async (): Promise<void> => {
    const a = action(op, target);
    const ok = await props.add({ name: name.trim(), trigger: trigger(kind, value, unit), actions: a ? [a] : [] });
    if (ok) setName('');
  };
  return (
    <form
      class="addout cue-add"
      data-testid="cue-add"
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) void submit();
      }}
    >
      <label class="field">
        Cue name
        <input maxLength={NAME_MAX} value={name} data-testid="cue-add-name" onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label class="field">
        Trigger
        <select
          value={kind}
          data-testid="cue-add-trigger"
          onChange={(e) => {
            const k = e.currentTarget.value as Kind;
            setKind(k);
            setValue(VALUE_START[k]);
          }}
        >
          <option value="manual">Manual (GO)</option>
          <option value="timecode">Timecode</option>
          <option value="follow">Follow</option>
          <option value="beats">Beats or bars</option>
        </select>
      </label>
      {kind !== 'manual' && (
        <label class="field">
          {VALUE_LABEL[kind]}
          <input
            inputMode={kind === 'timecode' ? 'numeric' : 'decimal'}
            value={value}
            data-testid="cue-add-value"
            onInput={(e) => setValue(e.currentTarget.value)}
          />
        </label>
      )}
      {kind === 'beats' && (
        <label class="field">
          Unit
          <select value={unit} onChange={(e) => setUnit(e.currentTarget.value as 'beat' | 'bar')}>
            <option value="bar">bars</option>
            <option value="beat">beats</option>
          </select>
        </label>
      )}
      <label class="field">
        Action
        <select
          value={op}
          data-testid="cue-add-action"
          onChange={(e) => {
            setOp(e.currentTarget.value as Op);
            setTarget('');
          }}
        >
          <option value="none">Nothing</option>
          <option value="scene">Recall a scene</option>
          <option value="blackout-on">Blackout on</option>
          <option value="blackout-off">Blackout off</option>
          <option value="source">Select a source</option>
        </select>
      </label>
      {op === 'scene' && (
        <label class="field">
          Scene
          <select value={target} data-testid="cue-add-scene" onChange={(e) => setTarget(e.currentTarget.value)}>
            <option value="">{scenes.length === 0 ? 'No scenes saved' : 'Choose…'}</option>
            {scenes.map((s) => (
              <option key={s.id} value={s.name}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {op === 'source' && (
        <label class="field">
          Source id
          <input value={target} data-testid="cue-add-source" onInput={(e) => setTarget(e.currentTarget.value)} />
        </label>
      )}
      <button type="submit" data-testid="cue-add-submit" disabled={!ready} title={props.full ? 'The cue list is full' : 'Add at the end'}>
        Add cue
      </button>
    </form>
  );
}
