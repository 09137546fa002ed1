// Entry: asks for the key when the server wants one, loads the state, opens the events socket, lays out the panels.
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import './styles.css';
import { call, onUnauthorized, setKey, getKey } from './api';
import { connect, disconnect, refreshLists, snapshot } from './live';
import { update, useLive, live } from './store';
import { StatusBar } from './panels/status';
import { ReloadErrorBanner } from './panels/reload-error';
import { AuthPrompt } from './panels/auth';
import { ProgramPanel } from './panels/program';
import { BrowsePanel } from './panels/browse';
import { EffectsPanel } from './panels/effects';
import { GeneratorPanel } from './panels/generator';
import { PalettesPanel, ActionsPanel } from './panels/palettes';
import { OutputsPanel } from './panels/outputs';
import { AudioPanel } from './panels/audio';
import { TransportPanel } from './panels/transport';
import { DesksPanel } from './panels/desks';
import { LayersPanel } from './panels/layers';
import { ScenesPanel } from './panels/scenes';
import { ShowPanel } from './panels/show';
import { CuesPanel } from './panels/cues';
import { PixelmapPanel } from './panels/pixelmap';
import { TakePanel } from './panels/take';
import { Slot, TabBar } from './layout';

declare global {
  interface Window {
    /** When the page had its state and went live (read by the page tests). */
    __vjdReady?: number;
  }
}

/** Checks the key with a protected route, then loads everything and goes live. */
export async function start(): Promise<void> {
  const status = await call('GET', '/status');
  if (status.ok) update({ status: status.body });
  const caps = await call('GET', '/capabilities');
  if (caps.status === 401) {
    update({ needKey: true, keyError: getKey() === '' ? '' : 'That key was refused.' });
    return;
  }
  update({ needKey: false, keyError: '' });
  await Promise.all([snapshot(), refreshLists()]);
  connect();
  window.__vjdReady = performance.now();
}

onUnauthorized(() => {
  if (live().needKey) return;
  disconnect();
  update({ needKey: true, keyError: 'The server asked for the key again.' });
});

function App() {
  const needKey = useLive((s) => s.needKey);
  const notice = useLive((s) => s.notice);
  useEffect(() => void start(), []);
  if (needKey) {
    return (
      <AuthPrompt
        onKey={(k) => {
          setKey(k);
          void start();
        }}
      />
    );
  }
  return (
    <>
      <StatusBar />
      <ReloadErrorBanner />
      <p class="notice" role="status" aria-live="polite">
        {notice}
      </p>
      <main class="grid">
        <TabBar />
        <div class="col">
          <Slot deck={1}>
            <ProgramPanel />
          </Slot>
          <Slot deck={2}>
            <TakePanel />
          </Slot>
          <Slot deck={4}>
            <ScenesPanel />
          </Slot>
          <Slot deck={5}>
            <TransportPanel />
          </Slot>
          <Slot tab="browse">
            <BrowsePanel />
          </Slot>
        </div>
        <div class="col">
          <Slot tab="layers">
            <LayersPanel />
          </Slot>
          <Slot tab="effects">
            <EffectsPanel />
            <GeneratorPanel />
          </Slot>
          <Slot tab="palettes">
            <PalettesPanel />
          </Slot>
        </div>
        <div class="col">
          <Slot deck={3}>
            <AudioPanel />
          </Slot>
          <Slot tab="palettes">
            <ActionsPanel />
          </Slot>
          <Slot tab="outputs">
            <OutputsPanel />
          </Slot>
          <Slot tab="desks">
            <DesksPanel />
          </Slot>
          <Slot tab="cues">
            <ShowPanel />
            <CuesPanel />
          </Slot>
          <Slot tab="outputs">
            <PixelmapPanel />
          </Slot>
        </div>
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
