// The page's reads over HTTP: every topic's state at start and in fallback mode, and the lists no topic carries.
import { call } from './api';
import { frozenFrom } from './merge';
import { live, update, type LiveState } from './store';
import { wantedTopics } from './wanted';

/** Lists that no topic carries: read once at start and after the changes that alter them. */
export async function refreshLists(): Promise<void> {
  const [palettes, actions, catalog, transitions] = await Promise.all([
    call('GET', '/palettes'),
    call('GET', '/actions'),
    call('GET', '/effects/available'),
    call('GET', '/transitions'),
  ]);
  const patch: Partial<LiveState> = {};
  // A 200 cut short (the server stopping, a dropped connection) has no body: the list keeps what it had.
  if (palettes.ok && palettes.body) patch.palettes = palettes.body.items;
  if (actions.ok && actions.body) patch.actions = actions.body.items;
  if (catalog.ok && catalog.body) patch.catalog = catalog.body.items;
  if (transitions.ok && transitions.body) patch.transitions = transitions.body.items;
  update(patch);
  await refreshRecordings();
}

export async function refreshRecordings(): Promise<void> {
  const r = await call('GET', '/recordings');
  if (r.ok && r.body) update({ recordings: r.body.items });
}

/** The cue panel's topics while it asks for them (`want`): without a socket the timecode and the countdown move on here. */
async function wantedCues(patch: Partial<LiveState>): Promise<void> {
  const wanted = wantedTopics();
  const [cues, timecode] = await Promise.all([
    wanted.includes('cues') ? call('GET', '/cues') : null,
    wanted.includes('timecode') ? call('GET', '/timecode') : null,
  ]);
  if (cues?.ok) {
    patch.cues = cues.body;
    patch.cuesAt = performance.now();
  }
  if (timecode?.ok) patch.timecode = timecode.body;
}

/** Every topic read over HTTP: the start before the socket's hello, and the fallback. */
export async function snapshot(): Promise<void> {
  const patch: Partial<LiveState> = {};
  const [status, source, mix, chain, palette, global, outputs, modulation] = await Promise.all([
    call('GET', '/status'),
    call('GET', '/sources/current'),
    call('GET', '/mix'),
    call('GET', '/effects'),
    call('GET', '/palettes/current'),
    call('GET', '/global'),
    call('GET', '/outputs'),
    call('GET', '/modulation'),
    wantedCues(patch),
  ]);
  if (status.ok) {
    patch.status = status.body;
    frozenFrom(status.body, patch);
  }
  // No topic carries the freeze state: read here, so a reload or a reconnect shows a freeze made elsewhere.
  if (modulation.ok) patch.frozen = modulation.body.frozen;
  if (source.ok) patch.source = source.body;
  if (mix.ok) patch.mix = mix.body;
  if (chain.ok) patch.chain = chain.body;
  if (palette.ok) patch.palette = palette.body;
  if (global.ok) patch.global = global.body;
  if (outputs.ok) {
    patch.outputs = outputs.body;
    // An output that stopped may have finished a recording: no topic carries the list.
    if (JSON.stringify(outputs.body) !== JSON.stringify(live().outputs)) void refreshRecordings();
  }
  patch.lastEventAt = performance.now();
  update(patch);
}
