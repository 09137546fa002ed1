// Audio and tempo: a level meter with the four bands (the `audio` topic), BPM with confidence and source and a beat
// lamp (the `tempo` topic), tap / resync / ×½ / ×2 / back to auto, and the audio input selector (GET /audio,
// POST /audio/select).
import { useEffect, useState } from 'preact/hooks';
import { call, problem } from '../api';
import type { Got } from '../api-shapes';
import { BAND_NAMES } from '../band-names';
import { notify, useLive } from '../store';
import { AudioInputs } from './audio-inputs';
import { BeatLamp } from './beat-lamp';

const BARS = (['level', 'bass', 'lowMid', 'highMid', 'high'] as const).map((k) => [k, BAND_NAMES[k]] as const);

type TempoPath = '/tempo/tap' | '/tempo/resync';

export function AudioPanel() {
  const levels = useLive((s) => s.audio);
  const beat = useLive((s) => s.tempo);
  const [audio, setAudio] = useState<Got<'/audio'> | null>(null);
  const [view, setView] = useState<Got<'/tempo'> | null>(null);

  useEffect(() => {
    void call('GET', '/audio').then((r) => r.ok && setAudio(r.body));
    void call('GET', '/tempo').then((r) => r.ok && setView(r.body));
  }, []);
  const tempo = beat ?? view;
  const act = async (r: { ok: boolean; body: unknown }): Promise<void> => {
    if (!r.ok) notify(problem(r as Parameters<typeof problem>[0]));
    else if (r.body && typeof r.body === 'object' && 'bpm' in r.body) setView(r.body as Got<'/tempo'>);
  };
  const post = (path: TempoPath) => async () => act(await call('POST', path));
  const multiply = (factor: 0.5 | 2) => async () => act(await call('POST', '/tempo/multiply', { body: { factor } }));
  const auto = async () => act(await call('POST', '/tempo/source', { body: { source: 'auto' } }));

  return (
    <section class="panel" aria-labelledby="audio-h">
      <div class="row">
        <h2 id="audio-h" class="grow">
          Audio and tempo
        </h2>
        <BeatLamp sample={beat ?? view} />
      </div>
      <div class="meter">
        {BARS.map(([k, label]) => {
          const v = levels?.[k] ?? 0;
          return (
            <div class="mbar" key={k}>
              <span class="mfill" data-testid={`meter-${k}`} data-value={v.toFixed(3)} style={{ height: `${Math.round(v * 100)}%` }} />
              <span class="mlabel">{label}</span>
            </div>
          );
        })}
      </div>
      <p class="row wrap">
        <strong data-testid="tempo-bpm" class="bpm">
          {tempo ? tempo.bpm.toFixed(1) : '—'}
        </strong>
        <span>BPM</span>
        <span data-testid="tempo-source">{tempo?.source ?? ''}</span>
        <span data-testid="tempo-confidence" class="hint">
          {tempo ? `${Math.round(tempo.confidence * 100)}% sure` : ''}
        </span>
      </p>
      <div class="grid-buttons">
        <button type="button" data-testid="tempo-tap" onClick={post('/tempo/tap')}>
          Tap
        </button>
        <button type="button" data-testid="tempo-resync" onClick={post('/tempo/resync')}>
          Resync
        </button>
        <button type="button" data-testid="tempo-half" onClick={multiply(0.5)}>
          ×½
        </button>
        <button type="button" data-testid="tempo-double" onClick={multiply(2)}>
          ×2
        </button>
        {tempo && tempo.source !== 'auto' ? (
          <button type="button" data-testid="tempo-auto" title="Back to the beat tracker" onClick={auto}>
            Auto
          </button>
        ) : null}
      </div>
      <label class="field">
        Audio input
        <select
          data-testid="audio-input"
          value={audio?.current ?? 'none'}
          onChange={async (ev) => {
            const id = (ev.target as HTMLSelectElement).value;
            const r = await call('POST', '/audio/select', { body: { id } });
            if (!r.ok) notify(problem(r));
            const now = await call('GET', '/audio');
            if (now.ok) setAudio(now.body);
          }}
        >
          <option value="none">None</option>
          {(audio?.inputs ?? []).map((i) => (
            <option key={i.id} value={i.id} disabled={!i.available}>
              {i.name}
            </option>
          ))}
        </select>
      </label>
      <InputsFold onChange={() => void call('GET', '/audio').then((r) => r.ok && setAudio(r.body))} />
    </section>
  );
}

/** The inputs list and form, folded: it is set-up, not performance, and stays off a phone's first screen. Nothing is
 * read until it is opened. */
function InputsFold(props: { onChange: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      class="audio-inputs-fold"
      data-testid="audio-inputs-fold"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>Audio inputs</summary>
      {open && <AudioInputs onChange={props.onChange} />}
    </details>
  );
}
