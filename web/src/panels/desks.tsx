// Desks: a status line each for the DMX receiver and MIDI (GET /dmx, GET /midi), and MIDI learn mode: with it on,
// clicking a control of the page that has an OSC address (`data-osc`) asks POST /midi/learn to bind the next
// message, so a knob moved on the controller then drives that control.
import { useEffect, useState } from 'preact/hooks';
import { call, problem } from '../api';
import type { Got } from '../api-shapes';

const POLL_MS = 2000;

function dmxLine(d: Got<'/dmx'> | null): string {
  if (d === null) return 'DMX …';
  if (!d.enabled) return 'DMX off';
  if (!d.listening) return `DMX not listening (${d.protocol} port ${d.port})`;
  const from = d.lastSource === null ? 'no desk yet' : `from ${d.lastSource}`;
  return `DMX ${d.protocol} universe ${d.universe} at ${d.address}: ${d.packetsPerSecond} packets/s, ${from}${d.loss ? ', signal lost' : ''}`;
}

function midiLine(m: Got<'/midi'> | null): string {
  if (m === null) return 'MIDI …';
  if (!m.enabled) return 'MIDI off';
  const ports = `${m.inputs.length} in, ${m.outputs.length} out, ${m.mappings} mappings`;
  return m.available ? `MIDI ${ports}` : `MIDI devices unavailable (${m.reason ?? 'unknown'}); ${m.mappings} mappings`;
}

export function DesksPanel() {
  const [dmx, setDmx] = useState<Got<'/dmx'> | null>(null);
  const [midi, setMidi] = useState<Got<'/midi'> | null>(null);
  const [learn, setLearn] = useState(false);
  const [message, setMessage] = useState('');

  useEffect(() => {
    const read = (): void => {
      void call('GET', '/dmx').then((r) => r.ok && setDmx(r.body));
      void call('GET', '/midi').then((r) => r.ok && setMidi(r.body));
    };
    read();
    const t = setInterval(read, POLL_MS);
    return () => clearInterval(t);
  }, []);

  useEffect(() => {
    if (!learn) return;
    // Capture phase: the click picks the control instead of operating it.
    const pick = (e: MouseEvent): void => {
      const el = (e.target as Element | null)?.closest('[data-osc]');
      if (!el) return;
      e.preventDefault();
      e.stopPropagation();
      const to = el.getAttribute('data-osc')!;
      const mode = el.getAttribute('data-osc-mode') as 'toggle' | 'trigger' | null;
      setLearn(false);
      setMessage(`Move a control on the MIDI controller to bind ${to} …`);
      void call('POST', '/midi/learn', { body: { to, ...(mode ? { mode } : {}), feedback: true } }).then((r) => {
        if (!r.ok) return setMessage(problem(r));
        const m = r.body.mapping;
        setMessage(`Bound ${m.type} ${m.number ?? ''} on channel ${m.channel ?? 'any'} (${m.port ?? 'any port'}) to ${m.to}`);
      });
    };
    // A slider would move on the press itself: presses on controls are held back too.
    const hold = (e: MouseEvent): void => {
      if (!(e.target as Element | null)?.closest('[data-osc]')) return;
      e.preventDefault();
      e.stopPropagation();
    };
    document.addEventListener('mousedown', hold, true);
    document.addEventListener('click', pick, true);
    return () => {
      document.removeEventListener('mousedown', hold, true);
      document.removeEventListener('click', pick, true);
    };
  }, [learn]);

  return (
    <section class="panel" aria-labelledby="desks-h">
      <div class="row">
        <h2 id="desks-h" class="grow">
          Desks
        </h2>
        <button
          type="button"
          aria-pressed={learn}
          class={learn ? 'on' : ''}
          data-testid="midi-learn"
          disabled={!midi?.enabled}
          onClick={() => {
            setLearn(!learn);
            setMessage(learn ? '' : 'MIDI learn: click a control of this page (blackout, dimmer)');
          }}
        >
          MIDI learn
        </button>
      </div>
      <p data-testid="dmx-status">{dmxLine(dmx)}</p>
      <p data-testid="midi-status">{midiLine(midi)}</p>
      <p data-testid="learn-message" role="status" aria-live="polite">
        {message}
      </p>
    </section>
  );
}
