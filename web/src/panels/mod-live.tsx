// The page-wide parts of modulation: the freeze button (a performer's panic button) and the `live` topic's
// subscription, held only while a panel shows a modulated input.
import { useEffect } from 'preact/hooks';
import { problem } from '../api';
import { freezeModulation } from '../mod-api';
import { notify, update, useLive } from '../store';
import { want } from '../wanted';

/** Holds every modulated input where it is (a performer's panic button); pressed again, they run on in phase. */
export function FreezeButton() {
  const frozen = useLive((s) => s.frozen);
  return (
    <button
      type="button"
      class={frozen ? 'danger' : ''}
      aria-pressed={frozen}
      data-testid="mod-freeze"
      onClick={async () => {
        const r = await freezeModulation(!frozen);
        if (r.ok) update({ frozen: r.body.frozen });
        else notify(problem(r));
      }}
    >
      {frozen ? 'Release' : 'Freeze'}
    </button>
  );
}

/** Subscribes to the `live` topic while `active` (a panel shows a modulated input), so the server runs it only then. */
export function useWantLive(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    want('live', true);
    return () => want('live', false);
  }, [active]);
}
