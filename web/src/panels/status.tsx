// The status bar: server state, render fps, dropped frames, clients, license tier, and whether a key is set.
import { useLive } from '../store';

const LINK: Record<string, string> = { starting: 'starting', connecting: 'reconnecting', live: 'live', fallback: 'polling (no events socket)', offline: 'offline' };

export function StatusBar() {
  const s = useLive((x) => x.status) ?? {};
  const link = useLive((x) => x.link);
  const fps = s.fps ?? s.render?.fps;
  const dropped = s.droppedFrames ?? s.render?.droppedFrames;
  const clients = s.clients ?? s.events?.clients ?? s.eventClients;
  const keyRequired = s.server?.apiKeyRequired;
  return (
    <header class="statusbar" aria-label="Server status">
      <strong class="brand">vjd</strong>
      <span data-testid="server-state" class={s.status === 'Server Running' || s.state === 'Server Running' ? 'ok' : 'warn'}>
        {s.status ?? s.state ?? '…'}
      </span>
      <span data-testid="fps">{fps === undefined ? 'fps –' : `${Math.round(fps)} fps`}</span>
      <span data-testid="dropped">{dropped === undefined ? '' : `${dropped} dropped`}</span>
      <span data-testid="clients">{clients === undefined ? '' : `${clients} clients`}</span>
      <span data-testid="tier">{s.license?.tier ? `${s.license.tier} license` : ''}</span>
      <span data-testid="keystate" class={keyRequired === false ? 'warn' : ''}>
        {keyRequired === false ? 'no key set' : keyRequired ? 'key set' : ''}
      </span>
      <span data-testid="link" class={link === 'live' ? 'ok' : 'warn'}>
        {LINK[link]}
      </span>
    </header>
  );
}
