// Config `show`: the MQTT show link (docs/show.md) that joins this box to others through a broker. Absent or null in
// the embedded default, so a box runs alone; read at start only. Names become topic levels, so they are kept to a
// small topic-safe alphabet; the password lives in its own file so the config (and what shows it) never holds it.
import Type, { type Static } from 'typebox';
import { SHOW_LIMITS } from '../limits.js';

const MAX = SHOW_LIMITS.nameMaxLength;
/** One MQTT topic level: no `/`, `+`, `#`, spaces or a leading `$` (the broker's own topics). */
export const SHOW_NAME_PATTERN = `^[A-Za-z0-9_][A-Za-z0-9_.-]{0,${MAX - 1}}$`;
const ShowName = (what: string) =>
  Type.String({
    pattern: SHOW_NAME_PATTERN,
    description: `${what} of 1 to ${MAX} characters from A-Z a-z 0-9 _ . - (one MQTT topic level; not starting with . or -)`,
  });

// As schema.ts's PathSchema (not imported: schema.ts imports this file).
const PathSchema = Type.String({ minLength: 1, maxLength: 4096, pattern: '^[^\\x00]*$', description: 'a path of 1 to 4096 characters' });
const NullablePath = Type.Union([Type.Null(), PathSchema], { description: 'null or a path of 1 to 4096 characters' });
const flag = () => Type.Boolean({ description: 'true or false' });

const BrokerSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      pattern: '^(mqtts?|wss?)://[^\\s@]+$',
      description:
        'a broker URL such as "mqtt://10.0.0.5:1883" (mqtt, mqtts, ws or wss; no spaces, no user or password: use username and passwordFile)',
    }),
    username: Type.Optional(
      Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 256 })], {
        description: 'null or a user name of 1 to 256 characters',
      }),
    ),
    passwordFile: Type.Optional(NullablePath),
    tls: Type.Optional(
      Type.Object(
        {
          ca: Type.Optional(NullablePath),
          cert: Type.Optional(NullablePath),
          key: Type.Optional(NullablePath),
          rejectUnauthorized: Type.Optional(flag()),
        },
        { additionalProperties: false, description: 'an object {ca?, cert?, key?, rejectUnauthorized?}' },
      ),
    ),
  },
  { additionalProperties: false, description: 'an object {url, username?, passwordFile?, tls?}' },
);

const ShowObject = Type.Object(
  {
    name: ShowName('a show name'),
    box: ShowName("this box's name"),
    broker: BrokerSchema,
    groups: Type.Optional(
      Type.Array(ShowName('a group name'), {
        maxItems: SHOW_LIMITS.groupsMax,
        description: `a list of at most ${SHOW_LIMITS.groupsMax} group names`,
      }),
    ),
    leader: Type.Optional(flag()),
  },
  { additionalProperties: false, description: 'an object {name, box, broker, groups?, leader?}' },
);

// The object first: a bad value inside it is then reported by its own key rather than as "not null".
export const ShowConfigSchema = Type.Union([ShowObject, Type.Null()], {
  description: 'null (no show: the box runs alone) or an object {name, box, broker, groups?, leader?}',
});

export interface ShowConfig {
  name: string;
  box: string;
  broker: {
    url: string;
    username: string | null;
    /** As written; the loader resolves it beside the config file (`paths.show`). */
    passwordFile: string | null;
    tls: { ca: string | null; cert: string | null; key: string | null; rejectUnauthorized: boolean };
  };
  groups: string[];
  leader: boolean;
}

type ShowFile = Static<typeof ShowConfigSchema>;

/** The file's `show` with its defaults filled in; null when the file names no show. */
export function mergeShow(file: ShowFile | undefined): ShowConfig | null {
  if (!file) return null;
  const b = file.broker;
  return {
    name: file.name,
    box: file.box,
    broker: {
      url: b.url,
      username: b.username ?? null,
      passwordFile: b.passwordFile ?? null,
      tls: {
        ca: b.tls?.ca ?? null,
        cert: b.tls?.cert ?? null,
        key: b.tls?.key ?? null,
        rejectUnauthorized: b.tls?.rejectUnauthorized ?? true,
      },
    },
    groups: file.groups ?? [],
    leader: file.leader ?? false,
  };
}

/** A `show` the schema lets through that could not work as meant: the dotted key and the message, or null. */
export function showProblem(show: ShowFile | undefined): { key: string; message: string } | null {
  if (!show) return null;
  const b = show.broker;
  let url: URL | null = null;
  try {
    url = new URL(b.url);
  } catch {
    return { key: 'show.broker.url', message: 'show.broker.url is not a URL' };
  }
  if (url.username !== '' || url.password !== '')
    return {
      key: 'show.broker.url',
      message: 'show.broker.url must not carry a user or password: use show.broker.username and show.broker.passwordFile',
    };
  if (b.passwordFile && !b.username)
    return { key: 'show.broker.passwordFile', message: 'show.broker.passwordFile needs show.broker.username' };
  if (Boolean(b.tls?.cert) !== Boolean(b.tls?.key))
    return { key: 'show.broker.tls', message: 'show.broker.tls needs both cert and key, or neither' };
  // `all` is the target every box hears; a group or box of that name could not be told apart from it.
  if (show.box === 'all') return { key: 'show.box', message: 'show.box must not be "all" (the topic every box hears)' };
  const seen = new Set<string>();
  for (const [i, g] of (show.groups ?? []).entries()) {
    const key = `show.groups[${i}]`;
    if (g === 'all') return { key, message: `${key} must not be "all" (the topic every box hears)` };
    if (g === show.box) return { key, message: `${key} ${JSON.stringify(g)} is the box's own name` };
    if (seen.has(g)) return { key, message: `${key} ${JSON.stringify(g)} is listed twice` };
    seen.add(g);
  }
  return null;
}
