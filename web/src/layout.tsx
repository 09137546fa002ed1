// Where the panels go. A laptop shows three columns, everything at once. A phone (a narrow window) shows the
// performance deck first (program and preview, take, tempo, scenes, blackout) and the rest behind tabs; every panel
// stays mounted whichever tab shows, so a hidden one keeps its state, and the chosen tab survives a reload.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const TABS = [
  ['effects', 'Effects'],
  ['browse', 'Browse'],
  ['layers', 'Layers'],
  ['palettes', 'Palettes'],
  ['outputs', 'Outputs'],
  ['cues', 'Cues'],
  ['desks', 'Desks'],
] as const;
export type Tab = (typeof TABS)[number][0];

const SLOT = 'vjd.tab';
/** The width below which the page is one column with tabs (the same figure as in styles.css). */
const NARROW = '(max-width: 999px)';

function stored(): Tab {
  const v = localStorage.getItem(SLOT);
  return TABS.some(([id]) => id === v) ? (v as Tab) : TABS[0][0];
}

let tab: Tab = stored();
const listeners = new Set<(t: Tab) => void>();

export function showTab(t: Tab): void {
  tab = t;
  try {
    localStorage.setItem(SLOT, t);
  } catch {
    // Storage refused: the tab still changes for this visit.
  }
  for (const l of [...listeners]) l(t);
}

function useTab(): Tab {
  const [t, setT] = useState(tab);
  useEffect(() => {
    listeners.add(setT);
    setT(tab);
    return () => void listeners.delete(setT);
  }, []);
  return t;
}

/** Whether the window is narrow enough for the tabs (tab roles are only announced then). */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  useEffect(() => {
    const q = window.matchMedia(NARROW);
    const on = (): void => setNarrow(q.matches);
    q.addEventListener('change', on);
    return () => q.removeEventListener('change', on);
  }, []);
  return narrow;
}

/** The tab bar; CSS shows it only on a narrow window. */
export function TabBar() {
  const current = useTab();
  return (
    <div class="tabs" role="tablist" aria-label="Panels" data-testid="tabs">
      {TABS.map(([id, label]) => (
        <button
          key={id}
          type="button"
          role="tab"
          id={`tab-${id}`}
          aria-selected={current === id}
          data-testid={`tab-${id}`}
          onClick={() => showTab(id)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** A panel's place: `deck` on a phone's first screen, else the tab it belongs to. */
export function Slot(props: { deck?: number; tab?: Tab; children: ComponentChildren }) {
  const current = useTab();
  const narrow = useNarrow();
  if (props.deck !== undefined) return <div class={`slot deck d${props.deck}`}>{props.children}</div>;
  const shown = props.tab === current;
  return (
    <div
      class={`slot tabbed${shown ? ' shown' : ''}`}
      data-tab={props.tab}
      {...(narrow ? { role: 'tabpanel', 'aria-labelledby': `tab-${props.tab}` } : {})}
    >
      {props.children}
    </div>
  );
}
