// The topic layout of one show (docs/show.md): commands by target, replies by box and id, each box's retained state.
// Every topic vjd reads is parsed here with its length checked first, so a name from the broker is never used unchecked.
import { SHOW_LIMITS } from '../limits.js';

const NAME = new RegExp(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,${SHOW_LIMITS.nameMaxLength - 1}}$`);

/** Whether `s` is a box, group or show name as config allows it (one topic level). */
export const isShowName = (s: string): boolean => s.length <= SHOW_LIMITS.nameMaxLength && NAME.test(s);

export class ShowTopics {
  readonly root: string;

  constructor(
    readonly show: string,
    readonly box: string,
  ) {
    this.root = `vjd/${show}`;
  }

  /** `target`: `all`, a group or a box. */
  cmd(target: string): string {
    return `${this.root}/cmd/${target}`;
  }

  reply(box: string, id: string): string {
    return `${this.root}/reply/${box}/${id}`;
  }

  state(box: string): string {
    return `${this.root}/box/${box}/state`;
  }

  /** What this box hears commands on: every box, each of its groups, itself. */
  commandFilters(groups: readonly string[]): string[] {
    return [this.cmd('all'), ...groups.map((g) => this.cmd(g)), this.cmd(this.box)];
  }

  /** Every box's state, this box's included. */
  get stateFilter(): string {
    return `${this.root}/box/+/state`;
  }

  /** Whether a topic is a command topic of this show. */
  isCommand(topic: string): boolean {
    return topic.startsWith(`${this.root}/cmd/`);
  }

  /** The box a state topic names, or null when the topic is not one (or names no valid box). */
  boxOfState(topic: string): string | null {
    const head = `${this.root}/box/`;
    const tail = '/state';
    if (topic.length > head.length + SHOW_LIMITS.nameMaxLength + tail.length) return null;
    if (!topic.startsWith(head) || !topic.endsWith(tail)) return null;
    const box = topic.slice(head.length, topic.length - tail.length);
    return isShowName(box) ? box : null;
  }
}

/** Whether an MQTT topic filter (with `+` and `#`) matches a topic: for the link's subscribe hook. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}
