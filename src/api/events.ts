// GET /api/v1/events as documented: the WebSocket's upgrade (served by src/events/socket.ts, registered before this
// route) and its messages; a plain GET that does not ask to upgrade lands here and gets 426.
import { ApiError } from '../errors.js';
import { EVENT_LIMITS } from '../limits.js';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';

function description(topics: string[], helloTopics: string[]): string {
  return [
    'A WebSocket on the HTTP port that pushes every state change and carries requests. Connect with `ws://<host>:<port>/api/v1/events`; a GET without `Upgrade: websocket` is answered 426.',
    `**Auth** (when a key is set): the upgrade carries \`X-API-Key\` or \`Authorization: Bearer\`, or the first message within ${EVENT_LIMITS.authTimeoutMs / 1000} s is \`{"type":"auth","key":"…"}\` (browsers cannot set headers); otherwise the socket is closed with code 4401. A credential in the URL (\`?key=\`, \`?token=\`, …) is refused with 400 before the upgrade. The Host rules of every route apply (421). A browser page may connect only from a loopback origin, from the page vjd serves itself (an \`Origin\` naming the \`Host\` the upgrade was sent to) or from an origin in \`server.allowedOrigins\`; any other \`Origin\` is refused with 403 ORIGIN_NOT_ALLOWED, with or without a key (clients that send no \`Origin\` are not browsers and pass). When the API key is set, changed or removed, every open socket is closed with 4401 and must authenticate again.`,
    `**Server messages** (each has \`seq\`, rising by one per message on the connection):`,
    `- \`{"type":"hello","seq","server":{"name","version"},"resync":false,"topics":[…],"state":{${helloTopics.join(', ')}}}\` after auth; each state member is the JSON its GET route answers (\`source\` GET /sources/current, \`chain\` GET /effects, \`palette\` GET /palettes/current or null when none is selected, \`global\` GET /global, \`outputs\` GET /outputs). A client that fell behind gets another hello with \`"resync":true\`.`,
    '- `{"type":"event","seq","topic","data"}`: `data` is the full new state of the topic (not a diff). Topics: ' +
      topics.map((t) => `\`${t}\``).join(', ') +
      ". `library` is GET /browse (the tree was rebuilt); `status` is GET /status once per second; `thumbnail` is `{url, etag}` when a watched thumbnail's ETag changes (GET /thumbnails/current, and every thumbnail URL requested over the socket), at most 10 per second per URL. `audio` is GET /audio/levels (`{level, bass, lowMid, highMid, high, onset, onsets, hops, hopMs}`), at most 30 per second and only when the values changed; `tempo` is `{beat, bar, bpm, confidence, source, position, at}` on every beat of the tempo clock and as soon as its BPM or source changes (`position`: the fractional beat at `at`, epoch ms on the server's clock, so a display can light its beats from the clock rather than on arrival). Both are read only while a client subscribes to them (or OSC feedback goes out). `live` is `{effects: [{index, input, component?, live}], source: [{input, component?, live}], mix?, dimmer?}`: the applied values of the modulated inputs (effect inputs by chain position, the program generator's, the T-bar, the dimmer) as the render worker last reported them, at most 30 per second and only when they changed; it runs only while a client subscribes to it.",
    '- `{"type":"response","seq","id","status","body"}` answers a request: the status and JSON body the same HTTP request gets, errors included; image routes (thumbnails) answer `{"etag"}` only; other non-JSON routes answer `body: null`.',
    '- `{"type":"subscribed","seq","topics"}` confirms a subscription; `{"type":"error","seq","code":"INVALID_REQUEST","message","id"?}` answers a malformed or unknown message; the connection stays open.',
    '**Client messages**: `{"type":"subscribe","topics":[…]}` replaces the subscription (default: every topic except `status`, `thumbnail`, `audio`, `tempo`, `live` and `transport`, which a client names to get them); `{"type":"request","id","method":"GET"|"POST"|"DELETE","path":"/api/v1/…","body":{…}}` runs through the same route table, validation, auth and errors as HTTP.',
    `**Limits**: at most \`server.maxEventClients\` (default ${EVENT_LIMITS.clientsDefault}) connections, the next is closed with 4429. Sockets still waiting to authenticate have ${EVENT_LIMITS.pendingMax} places of their own, at most ${EVENT_LIMITS.pendingPerAddress} per remote address; a newcomer takes the place of the oldest waiting socket (of its own address, else of the address holding the most places), which is closed with 4429. A client whose unsent data passes ${EVENT_LIMITS.backpressureBytes / 1024 / 1024} MiB has its queue dropped and gets a fresh hello once it drains. A message larger than ${EVENT_LIMITS.messageMaxBytes} bytes closes the connection (1009; a frame over ${EVENT_LIMITS.frameReadMaxBytes / 1024 / 1024} MiB is dropped by the engine without a close frame, 1006). The server pings every ${EVENT_LIMITS.pingIntervalMs / 1000} s and closes a client silent for ${EVENT_LIMITS.silenceMs / 1000} s (1001).`,
  ].join('\n\n');
}

export function eventsRoutes(topics: string[], helloTopics: string[]): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/events`,
      auth: 'required',
      operationId: 'getEvents',
      summary: 'WebSocket: state events and requests',
      description: description(topics, helloTopics),
      tags: ['events'],
      feature: 'events',
      schema: {},
      responses: { 101: { description: 'Switching Protocols: the WebSocket is open (sent only to a request with `Upgrade: websocket`)' } },
      errors: ['UPGRADE_REQUIRED', 'ORIGIN_NOT_ALLOWED'],
      handler: () => {
        throw new ApiError('UPGRADE_REQUIRED', undefined, undefined, { Upgrade: 'websocket' });
      },
    }),
  ];
}
