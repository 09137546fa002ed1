// The show panel (docs/show.md): only on a box that is part of a show. This box's show, name and role, the broker
// connection, every box of the show with what it last said, the beat clock and the scheduled operations, live over
// the `show` topic, which the page subscribes to only on such a box.
import { useEffect } from 'preact/hooks';
import { call } from '../api';
import { live, update, useLive } from '../store';
import { want } from '../wanted';
import { boxMeta, brokerLine, clockLine } from './show-lines';
import { Scheduled } from './show-scheduled';

/** Once when the page comes up: whether a show is configured (a config change needs a restart, so once is enough). */
async function readShow(): Promise<void> {
  const r = await call('GET', '/show');
  if (r.ok) update({ show: r.body });
}

export function ShowPanel() {
  const show = useLive((s) => s.show);
  const link = useLive((s) => s.link);
  const up = link === 'live' || link === 'fallback';
  useEffect(() => {
    if (up && live().show === null) void readShow();
  }, [up]);
  const enabled = show?.enabled === true;
  useEffect(() => {
    if (!enabled) return;
    want('show', true);
    return () => want('show', false);
  }, [enabled]);
  if (!show?.enabled) return null;

  const broker = brokerLine(show.broker);
  const clockText = clockLine(show.clock);
  return (
    <section class="panel" aria-labelledby="show-h" data-testid="show-panel">
      <h2 id="show-h">Show {show.show}</h2>
      <p>
        This box: <strong data-testid="show-box">{show.box}</strong> ({show.leader ? 'leader' : 'member'})
        {show.groups.length > 0 && <small> · groups {show.groups.join(', ')}</small>}
      </p>
      <p data-testid="show-broker" class={broker.tone} role="status" aria-live="polite">
        {broker.text}
      </p>
      {clockText !== '' && <p data-testid="show-clock">{clockText}</p>}
      <h3>Boxes</h3>
      {show.boxes.length === 0 && <p class="hint">No box heard yet.</p>}
      <ul class="showlist" data-testid="show-boxes">
        {show.boxes.map((b) => (
          <li key={b.box} data-box={b.box}>
            <strong>{b.box}</strong>
            {b.leader && <small>leader</small>}
            {b.box === show.box && <small>this box</small>}
            <span class={b.online ? 'ok' : 'warn'}>{b.online ? 'online' : 'offline'}</span>
            <span class="meta">{boxMeta(b)}</span>
          </li>
        ))}
      </ul>
      <Scheduled waiting={show.scheduled.waiting} recent={show.scheduled.recent} />
    </section>
  );
}
