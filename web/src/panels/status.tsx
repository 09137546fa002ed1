// The status bar: server state, render fps, dropped frames, connected event clients, license tier, and whether a key is set.
import { useLive } from '../store';

const LINK: Record<string, string> = {
  starting: 'starting',
  connecting: 'reconnecting',
  live: 'live',
  fallback: 'polling (no events socket)',
  offline: 'offline',
};

export function StatusBar() {
  const s = useLive((x) => x.status);
  const link = useLive((x) => x.link);
  const fps: number | undefined = s?.render.fps;
  const dropped: number | undefined = s?.render.droppedFrames;
  // Event WebSockets open on the server (this page's own included), from GET /status and the status topic.
  const clients: number | undefined = s?.events.clients;
  const keyRequired = s?.server.apiKeyRequired;
  return (
    <header class="statusbar">
      <strong class="brand">vjd</strong>
      <span data-testid="server-state" class={s?.status === 'Server Running' ? 'ok' : 'warn'}>
        {s?.status ?? '…'}
      </span>
      <span data-testid="fps">{fps === undefined ? 'fps –' : `${Math.round(fps)} fps`}</span>
      <span data-testid="dropped">{dropped === undefined ? '' : `${dropped} dropped`}</span>
      <span data-testid="clients">{clients === undefined ? '' : `${clients} ${clients === 1 ? 'client' : 'clients'} connected`}</span>
      <span data-testid="tier">{s?.license.tier ? `${s.license.tier} license` : ''}</span>
      <span data-testid="keystate" class={keyRequired === false ? 'warn' : ''}>
        {keyRequired === false ? 'no key set' : keyRequired ? 'key set' : ''}
      </span>
      <span data-testid="link" class={link === 'live' ? 'ok' : 'warn'}>
        {LINK[link]}
      </span>
    </header>
  );
}
