// The MQTT show link (docs/show.md): this box in a show of boxes that share one broker. It hears commands for all
// boxes, its groups and itself, and applies them through the one dispatch; publishes its state retained (a last will
// marks it offline); and keeps the other boxes' states for GET /show. A broker that is down or refuses the login
// changes nothing of the box itself: it runs and takes local control as ever while the link keeps trying.
// Later parts of the show (leader mirroring, a shared clock, show state on rejoin) are small files beside this one
// using `publish` and `subscribe`.
import type { ShowConfig } from '../config/show.js';
import type { Logger } from '../log.js';
import type { Dispatch } from '../transports/request.js';
import type { FeedbackBus, Transport } from '../transports/transport.js';
import { Commands } from './commands.js';
import { BrokerConnection, type BrokerStatus } from './connection.js';
import { Counters, type ShowCounters } from './counters.js';
import { clientOptions, publicUrl, type ShowFiles } from './options.js';
import { Peers, type PeerView } from './peers.js';
import { StatePublisher } from './state-publisher.js';
import { BeatShare, type BeatShareStats } from './beat-share.js';
import { type SceneRef, ShowScenes } from './show-scenes.js';
import { send } from '../transports/request.js';
import { API_PREFIX } from '../http/route.js';
import { boxState, offlineState, type ShowLookup } from './state.js';
import { ShowTopics, topicMatches } from './topics.js';

/** Bus topics whose change may change the state: published (coalesced) at once rather than at the next check. */
const STATE_TOPICS = new Set(['source', 'mix', 'global', 'scenes', 'layers']);

export interface ShowStats {
  enabled: boolean;
  show: string | null;
  box: string | null;
  groups: string[];
  leader: boolean;
  broker: BrokerStatus | null;
  boxes: PeerView[];
  counters: ShowCounters;
  /** The shared beat clock: this box's role in it and what it last sent or took. */
  clock: BeatShareStats | null;
  /** The scene per target (all, a group, a box) the leader keeps for boxes that (re)connect. */
  scenes: Record<string, SceneRef>;
}

type Handler = (topic: string, payload: Buffer, retained: boolean) => void;

export class ShowLink implements Transport {
  readonly topics: ShowTopics | null;
  private readonly counters: Counters;
  private readonly peers = new Peers();
  private readonly connection: BrokerConnection | null;
  private readonly commands: Commands | null;
  private readonly publisher: StatePublisher | null;
  private readonly beat: BeatShare | null = null;
  private readonly scenes: ShowScenes | null = null;
  private readonly hooks: Array<{ filter: string; handler: Handler }> = [];
  /** The command topics this box applies: all, its groups, itself. */
  private readonly ownCommands: ReadonlySet<string>;
  private version = '';
  private started = false;

  constructor(
    private readonly cfg: ShowConfig | null,
    private readonly files: ShowFiles | null,
    private readonly dispatch: Dispatch,
    private readonly log: Logger,
    private readonly lookup: ShowLookup & ShowTempoLookup & { version(): Promise<string> },
  ) {
    this.counters = new Counters(log);
    if (!cfg) {
      this.topics = this.connection = this.commands = this.publisher = null;
      this.ownCommands = new Set();
      return;
    }
    const topics = new ShowTopics(cfg.name, cfg.box);
    this.topics = topics;
    this.ownCommands = new Set(topics.commandFilters(cfg.groups));
    this.connection = new BrokerConnection(cfg.broker.url, publicUrl(cfg.broker.url), log, {
      connected: () => this.connected(),
      message: (topic, payload, retained) => this.message(topic, payload, retained),
    });
    this.commands = new Commands(cfg.box, dispatch, this.counters, (id, text) => this.publish(topics.reply(cfg.box, id), text), log);
    this.publisher = new StatePublisher(
      () => boxState(cfg, this.version, this.lookup),
      (text) => this.publish(topics.state(cfg.box), text, { retain: true }),
    );
    const warn = (msg: string, detail: object): void => log.warn(detail, msg);
    this.beat = new BeatShare(`${topics.root}/leader/tempo`, cfg.box, cfg.leader, this, lookup, warn);
    this.scenes = new ShowScenes(topics.root, cfg.box, cfg.groups, cfg.leader, this, (ref) => this.recall(ref));
  }

  /** Whether this box leads its show; null without a show (mirroring asks). */
  get leader(): boolean | null {
    return this.cfg ? this.cfg.leader : null;
  }

  commandTopic(target: string): string {
    return this.topics!.cmd(target);
  }

  /** Whether state changes are followed: only while connected (the bus reads topics only while someone listens). */
  get sendsFeedback(): boolean {
    return this.connection?.connected === true;
  }

  /** The streamed topics are not needed: fps and BPM are read at the periodic check. */
  wantsTopic(_topic: string): boolean {
    return false;
  }

  features(): string[] {
    return [];
  }

  async start(bus: FeedbackBus): Promise<void> {
    const { cfg, connection, publisher, topics } = this;
    if (!cfg || !connection || !publisher || !topics || this.started) return;
    this.started = true;
    bus.listen((topic) => {
      if (STATE_TOPICS.has(topic)) publisher.changed();
    });
    this.version = await this.lookup.version();
    const will = { topic: topics.state(cfg.box), payload: offlineState(cfg.box) };
    let options: Awaited<ReturnType<typeof clientOptions>>;
    try {
      options = await clientOptions(cfg, this.files ?? { passwordFile: null, ca: null, cert: null, key: null }, will);
    } catch (err) {
      return connection.failed((err as Error).message);
    }
    this.log.info({ show: cfg.name, box: cfg.box, groups: cfg.groups, url: connection.status().url }, 'show link connecting');
    this.beat?.start();
    this.scenes?.start();
    connection.open(options);
    publisher.start();
  }

  /** A clean stop: the box says it goes offline (as its last will would), then the connection ends. */
  stop(): void {
    if (!this.cfg || !this.connection) return;
    this.publisher?.stop();
    this.beat?.stop();
    this.publish(this.topics!.state(this.cfg.box), offlineState(this.cfg.box), { retain: true });
    this.connection.close();
  }

  /** Publishes on the show's broker while connected; false (nothing queued) otherwise. */
  publish(topic: string, payload: string | Buffer, opts: { retain?: boolean; qos?: 0 | 1 } = {}): boolean {
    return this.connection?.publish(topic, payload, { retain: opts.retain ?? false, qos: opts.qos ?? 1 }) ?? false;
  }

  /** Hears `filter` (subscribed now if connected, and at every connect): the hook later parts of the show use. */
  subscribe(filter: string, handler: Handler): void {
    this.hooks.push({ filter, handler });
    if (this.connection?.connected) this.connection.subscribe([filter]);
  }

  stats(): ShowStats {
    const { cfg } = this;
    return {
      enabled: cfg !== null,
      show: cfg?.name ?? null,
      box: cfg?.box ?? null,
      groups: cfg ? [...cfg.groups] : [],
      leader: cfg?.leader ?? false,
      broker: this.connection?.status() ?? null,
      boxes: this.peers.list(),
      counters: { ...this.counters.counts },
      clock: this.beat?.stats() ?? null,
      scenes: this.scenes?.view() ?? {},
    };
  }

  private connected(): void {
    const { cfg, topics, connection } = this;
    if (!cfg || !topics || !connection) return;
    // The leader hears every target's commands (it keeps the show's scenes from them) through one filter: overlapping
    // filters would bring each command once per filter that matches it.
    const commands = cfg.leader ? [topics.cmd('+')] : topics.commandFilters(cfg.groups);
    connection.subscribe([...commands, topics.stateFilter, ...this.hooks.map((h) => h.filter)]);
    this.publisher?.republish();
  }

  private message(topic: string, payload: Buffer, retained: boolean): void {
    const topics = this.topics!;
    // Only this box's own command topics apply here: a hook may hear other targets' commands (cmd/#) too.
    if (this.ownCommands.has(topic)) this.commands?.receive(topic, payload, retained);
    if (topics.isCommand(topic)) this.scenes?.command(topic, payload, retained);
    else {
      const box = topics.boxOfState(topic);
      if (box !== null) this.peers.heard(box, payload);
    }
    for (const h of this.hooks) if (topicMatches(h.filter, topic)) h.handler(topic, payload, retained);
  }

  /**
   * Recalls the show's scene for this box once it (re)connects. Always: the scene it last recalled may since have
   * been changed under it (a take, a select), and a recall leaves the layers already on the scene's sources as they are.
   */
  private recall(ref: SceneRef): void {
    this.log.info({ scene: ref }, 'show scene recalled on connect');
    void send(this.dispatch, `${API_PREFIX}/scenes/recall`, ref).then((r) => {
      if (r.status >= 300) this.log.warn({ scene: ref, status: r.status }, 'the show scene could not be recalled here');
    });
  }
}

/** What the shared beat clock reads and sets of the tempo clock. */
export interface ShowTempoLookup {
  clock(): { bpm: number; refTime: number; refBeat: number; beatsPerBar: number };
  lock(shared: { bpm: number; refTime: number; refBeat: number; beatsPerBar: number }): Promise<unknown>;
}
