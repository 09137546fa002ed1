// On-demand topics a panel asks for only while it shows something that needs them (the `live` values): the server
// runs such a topic only while someone subscribes, so the page subscribes only while some panel asks.
import type { Topic } from './store';

const wanted = new Map<Topic, number>();
let changed: (topic: Topic, on: boolean) => void = () => undefined;

/** The topics some panel wants now. */
export const wantedTopics = (): Topic[] => [...wanted.keys()];

/** Called when a topic becomes wanted or stops being wanted (the socket then subscribes again). */
export function onWantedChange(cb: (topic: Topic, on: boolean) => void): void {
  changed = cb;
}

/** A panel asks for a topic (`on`) or gives its ask back (`!on`); asks are counted per topic. */
export function want(topic: Topic, on: boolean): void {
  const before = wanted.has(topic);
  const n = (wanted.get(topic) ?? 0) + (on ? 1 : -1);
  if (n > 0) wanted.set(topic, n);
  else wanted.delete(topic);
  if (before !== wanted.has(topic)) changed(topic, !before);
}
