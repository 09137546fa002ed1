// The vjd connection: wires the HTTP client, the events socket, the state, and the action, feedback, variable and
// preset definitions together. Companion runs this file in its own process (manifest runtime.entrypoint).
import { InstanceBase, InstanceStatus, runEntrypoint, type SomeCompanionConfigField } from '@companion-module/base';
import { BeatClock } from './beat.js';
import { type Choices, emptyChoices, loadChoices } from './choices.js';
import { configFields, normaliseConfig, type VjdConfig, type VjdSecrets } from './config.js';
import { defineAll } from './definitions.js';
import { EventsLink, type LinkState } from './connection.js';
import { VjdHttp } from './http.js';
import { ImageCache } from './images.js';
import { TOPIC_PATHS, VjdState } from './state.js';
import { FEEDBACK_TOPICS, TopicNeeds } from './subscriptions.js';
import { variableDefinitions, variableValues } from './variables.js';

/** Topics whose change can alter the dropdown lists. */
const LIST_TOPICS = new Set(['chain', 'scenes', 'outputs', 'library', 'layers']);

export class VjdInstance extends InstanceBase<VjdConfig, VjdSecrets> {
  private config: VjdConfig | null = null;
  http: VjdHttp | null = null;
  link: EventsLink | null = null;
  readonly state = new VjdState();
  private choices: Choices = emptyChoices();
  private readonly needs = new TopicNeeds(() => this.updateTopics());
  private readonly beat = new BeatClock(() => this.checkFeedbacks('beat_flash'));
  private readonly images = new ImageCache(
    () => this.http,
    () => this.link,
    (ids) => this.checkFeedbacksById(...ids),
  );
  private wanted: string[] = [];
  private sentVars: Record<string, unknown> = {};
  private listTimer: NodeJS.Timeout | null = null;
  private clockTimer: NodeJS.Timeout | null = null;
  private maxLayers = 8;
  private lastStatus = '';

  async init(config: VjdConfig, _isFirstInit: boolean, secrets: VjdSecrets): Promise<void> {
    this.define();
    await this.configUpdated(config, secrets);
  }

  async configUpdated(config: VjdConfig, secrets: VjdSecrets): Promise<void> {
    this.stop();
    this.config = normaliseConfig(config);
    if (!this.config) return this.status(InstanceStatus.BadConfig, 'set the vjd host and port');
    const key = String(secrets?.apiKey ?? '');
    const host = this.config.host.includes(':') ? `[${this.config.host}]` : this.config.host;
    this.http = new VjdHttp(`http://${host}:${this.config.port}`, key);
    this.link = new EventsLink(`ws://${host}:${this.config.port}/api/v1/events`, key, {
      state: (s, detail) => this.onLinkState(s, detail),
      hello: (msg) => this.onHello(msg),
      event: (topic, data) => this.onTopic(topic, data),
      subscribed: (topics) => {
        this.log('debug', `subscribed: ${topics.join(',')}`);
        void this.seed(topics);
      },
    });
    this.updateTopics();
    this.link.start();
    this.clockTimer = setInterval(() => this.publishVariables(), 1000);
  }

  async destroy(): Promise<void> {
    this.stop();
  }

  getConfigFields(): SomeCompanionConfigField[] {
    return configFields();
  }

  private stop(): void {
    this.link?.stop();
    this.link = null;
    this.http = null;
    if (this.clockTimer) clearInterval(this.clockTimer);
    if (this.listTimer) clearTimeout(this.listTimer);
    this.beat.setRunning(false);
    this.state.topics.clear();
  }

  private status(s: InstanceStatus, message: string): void {
    if (`${s}|${message}` === this.lastStatus) return;
    this.lastStatus = `${s}|${message}`;
    this.updateStatus(s, message);
  }

  private onLinkState(s: LinkState, detail: string): void {
    if (s === 'ok') this.status(InstanceStatus.Ok, detail);
    else if (s === 'unauthorized') this.status(InstanceStatus.BadConfig, `vjd refused the API key (401): ${detail}`);
    else if (s === 'failed') this.status(InstanceStatus.ConnectionFailure, detail);
    // While retrying after a failure the failure stays shown; "connecting" is for the first attempt.
    else if (!this.lastStatus.startsWith(InstanceStatus.ConnectionFailure) && !this.lastStatus.startsWith(InstanceStatus.BadConfig))
      this.status(InstanceStatus.Connecting, detail);
  }

  private onHello(msg: any): void {
    // A (re)connect: topics not in the hello are read again over HTTP once the subscription is confirmed.
    this.state.topics.clear();
    for (const [topic, data] of Object.entries(msg.state ?? {})) if (this.wanted.includes(topic)) this.onTopic(topic, data);
    this.images.rewatch();
    void this.refreshLists();
  }

  private onTopic(topic: string, data: any, receivedAt = Date.now()): void {
    if (topic === 'thumbnail') return this.images.onEvent(data);
    if (!this.wanted.includes(topic)) return;
    this.state.set(topic, data);
    if (topic === 'tempo') this.beat.update(data, receivedAt);
    if (topic === 'layers' && typeof data?.max === 'number' && data.max !== this.maxLayers) {
      this.maxLayers = data.max;
      this.setVariableDefinitions(variableDefinitions(this.maxLayers));
      this.sentVars = {};
    }
    const ids = Object.keys(FEEDBACK_TOPICS).filter((f) => FEEDBACK_TOPICS[f]!.includes(topic) && !f.endsWith('_image'));
    if (ids.length > 0) this.checkFeedbacks(...ids);
    this.publishVariables();
    if (LIST_TOPICS.has(topic)) this.scheduleLists();
  }

  private publishVariables(): void {
    const all = variableValues(this.state, this.beat, this.http?.log ?? null);
    const changed: Record<string, any> = {};
    for (const [k, v] of Object.entries(all)) if (this.sentVars[k] !== v) changed[k] = this.sentVars[k] = v;
    if (Object.keys(changed).length > 0) this.setVariableValues(changed);
  }

  /** The subscription: exactly the topics of the feedbacks placed and the variable groups on. */
  private updateTopics(): void {
    this.wanted = this.config ? this.needs.topics(this.config.variableGroups) : [];
    for (const t of [...this.state.topics.keys()]) if (!this.wanted.includes(t)) this.state.topics.delete(t);
    this.beat.setRunning(this.needs.inUse('beat_flash'));
    this.link?.setTopics(this.wanted);
  }

  /** Reads the topics just subscribed to that the module has no state for (opt-in topics send none at once). */
  private async seed(topics: string[]): Promise<void> {
    const http = this.http;
    for (const t of topics) {
      const path = TOPIC_PATHS[t];
      if (!path || !http || this.state.topics.has(t)) continue;
      try {
        const data = await http.get(path);
        if (!this.state.topics.has(t) && http === this.http) this.onTopic(t, data);
      } catch (err) {
        this.log('debug', `could not read ${path}: ${(err as Error).message}`);
      }
    }
  }

  private scheduleLists(): void {
    if (this.listTimer) return;
    this.listTimer = setTimeout(() => {
      this.listTimer = null;
      void this.refreshLists();
    }, 500);
  }

  private async refreshLists(): Promise<void> {
    const http = this.http;
    if (!http) return;
    const next = await loadChoices(http, this.choices);
    const same =
      JSON.stringify({ ...next, thumbPaths: [...next.thumbPaths] }) ===
      JSON.stringify({ ...this.choices, thumbPaths: [...this.choices.thumbPaths] });
    if (same || http !== this.http) return;
    this.choices = next;
    this.define();
  }

  private define(): void {
    const { state, needs, beat, images, choices, maxLayers } = this;
    defineAll(this, { http: () => this.http, choices, state, needs, beat, images, maxLayers });
    this.sentVars = {};
  }
}

runEntrypoint(VjdInstance, []);
