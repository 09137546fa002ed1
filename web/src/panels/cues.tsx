// The cue list (docs/cues.md): the show timecode with its state, GO and Back, arming the timecode triggers, the
// cues with the current one highlighted and the next marked (each with move, Jump and delete), a countdown to the
// next cue's own trigger, and a form that adds a cue.
import { useEffect, useState } from 'preact/hooks';
import { useLive } from '../store';
import { want } from '../wanted';
import { CueAdd } from './cues-add';
import { actionWords, countdown, cueOp, readCues, TC_TONE, triggerWords, type Cue, type CuesView, type TimecodeView } from './cues-api';

/** The time now, every 100 ms while `on` (the countdown runs between events). */
function useTick(on: boolean): number {
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setNow(performance.now()), 100);
    return () => clearInterval(t);
  }, [on]);
  return now;
}

function Timecode({ tc }: { tc: TimecodeView | null }) {
  const off = tc === null || tc.source === 'none' || tc.state === 'off';
  const tone = off ? '' : TC_TONE[tc.state];
  const rate = tc?.rate ? ` · ${tc.rate} fps` : '';
  const from = tc?.sender ? ` · from ${tc.sender}` : '';
  return (
    <div class="row wrap cue-tc" data-testid="cue-tc">
      <span class={`lamp ${tone}`} aria-hidden="true" />
      {!off && (
        <output class="tc" data-testid="cue-timecode" aria-label="Timecode">
          {tc.timecode ?? '--:--:--:--'}
        </output>
      )}
      <span class={tone} data-testid="cue-tc-state">
        {off ? 'Timecode off' : `${tc.state} · ${tc.source.toUpperCase()}${rate}${from}`}
      </span>
    </div>
  );
}

function nextLine(v: CuesView, left: number | null): string {
  if (v.next === null) return v.cues.length === 0 ? 'No cues yet.' : 'End of the list.';
  return left === null ? `Next: ${v.next.name}, on GO` : `Next: ${v.next.name} in ${countdown(left)}`;
}

export function CuesPanel() {
  const v = useLive((s) => s.cues);
  const cuesAt = useLive((s) => s.cuesAt);
  const tc = useLive((s) => s.timecode);
  const link = useLive((s) => s.link);
  /** Whether the last read found no cue list (a server without the cue routes): the panel is not shown. */
  const [missing, setMissing] = useState(false);
  // Read once the page has its key and state, and after a reconnect: the answer says whether this server has a cue list.
  const up = link === 'live' || link === 'fallback';
  useEffect(() => {
    if (up) void readCues().then((has) => setMissing(!has));
  }, [up]);
  // Subscribed only once the server showed it has a cue list: one without refuses the whole subscription (unknown topic).
  const has = v !== null;
  useEffect(() => {
    if (!has) return;
    want('cues', true);
    want('timecode', true);
    return () => {
      want('cues', false);
      want('timecode', false);
    };
  }, [has]);
  const counting = v !== null && v.nextInMs !== null;
  const now = useTick(counting);
  if (missing) return null;

  const remove = (c: Cue): void => {
    if (window.confirm(`Delete cue ${c.name}?`)) void cueOp('/cues/delete', { id: c.id });
  };
  const left = v?.nextInMs == null ? null : v.nextInMs - Math.max(0, now - cuesAt);
  const list = v?.cues ?? [];
  const first = v !== null && v.current !== null && list[0]?.id === v.current.id;

  return (
    <section class="panel" aria-labelledby="cues-h" data-testid="cues-panel">
      <h2 id="cues-h">Cues</h2>
      <Timecode tc={tc} />
      <div class="row">
        <button
          type="button"
          class="primary cue-go"
          data-testid="cue-go"
          disabled={v?.next == null}
          onClick={() => void cueOp('/cues/go', {})}
        >
          GO
        </button>
        <button type="button" data-testid="cue-back" disabled={v?.current == null || first} onClick={() => void cueOp('/cues/back', {})}>
          Back
        </button>
        <button
          type="button"
          class="cue-arm"
          data-testid="cue-arm"
          aria-pressed={v?.armed === true}
          title="Whether timecode triggers fire"
          disabled={v === null}
          onClick={() => void cueOp('/cues/arm', { armed: !v?.armed })}
        >
          Arm timecode
        </button>
      </div>
      {v !== null && <p data-testid="cue-next">{nextLine(v, left)}</p>}
      <ol class="cuelist" data-testid="cue-list">
        {list.map((c, i) => {
          const current = v?.current?.id === c.id;
          const next = v?.next?.id === c.id;
          return (
            <li key={c.id} data-id={c.id} class={current ? 'current' : next ? 'next' : ''} aria-current={current ? 'step' : undefined}>
              <span class="cue-text">
                <span class="cue-name">
                  {i + 1}. {c.name}
                </span>
                {current && <small class="ok">current</small>}
                {next && <small class="ok">next</small>}
                <span class="meta">
                  {triggerWords(c.trigger)}
                  {c.actions.length > 0 && ` · ${c.actions.map(actionWords).join(', ')}`}
                </span>
              </span>
              <span class="row cue-btns">
                <button
                  type="button"
                  aria-label={`Move ${c.name} up`}
                  disabled={i === 0}
                  onClick={() => void cueOp('/cues/move', { id: c.id, index: i - 1 })}
                >
                  ↑
                </button>
                <button
                  type="button"
                  aria-label={`Move ${c.name} down`}
                  disabled={i === list.length - 1}
                  onClick={() => void cueOp('/cues/move', { id: c.id, index: i + 1 })}
                >
                  ↓
                </button>
                <button type="button" aria-label={`Jump to ${c.name}`} onClick={() => void cueOp('/cues/jump', { id: c.id })}>
                  Jump
                </button>
                <button type="button" class="danger" aria-label={`Delete cue ${c.name}`} onClick={() => remove(c)}>
                  ×
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      <CueAdd full={v !== null && list.length >= v.max} add={(body) => cueOp('/cues/add', body)} />
    </section>
  );
}
