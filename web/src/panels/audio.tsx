// Audio: a level meter with the four bands (the `audio` topic) and the audio input selector (GET /audio,
// POST /audio/select).
import { useEffect, useState } from 'preact/hooks';
import { call, problem } from '../api';
import type { Got } from '../api-shapes';
import { notify, useLive } from '../store';

const BARS = [
  ['level', 'Level'],
  ['bass', 'Bass'],
  ['lowMid', 'Low-mid'],
  ['highMid', 'High-mid'],
  ['high', 'High'],
] as const;

export function AudioPanel() {
  const levels = useLive((s) => s.audio);
  const [audio, setAudio] = useState<Got<'/audio'> | null>(null);

  useEffect(() => {
    void call('GET', '/audio').then((r) => r.ok && setAudio(r.body));
  }, []);

  return (
    <section class="panel" aria-labelledby="audio-h">
      <div class="row">
        <h2 id="audio-h" class="grow">
          Audio
        </h2>
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
    </section>
  );
}
