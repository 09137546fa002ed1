// The show benchmark's estimate on paper: what one Mosquitto carries for a 50-box show, from payload sizes the
// bench heard on its broker (not measured traffic). Packet sizes follow MQTT 5: every message of a show is QoS 1, so
// each PUBLISH carries a packet id and is answered by a 4-byte PUBACK the other way; TCP/IP headers are left out.

/** Bytes of a QoS 1 MQTT 5 PUBLISH without properties: fixed header, topic, packet id, property length, payload. */
export function publishBytes(topic: string, payloadBytes: number): number {
  const rest = 2 + Buffer.byteLength(topic) + 2 + 1 + payloadBytes;
  // The remaining length is a varint: 7 bits per byte.
  const lenBytes = rest < 128 ? 1 : rest < 16_384 ? 2 : rest < 2_097_152 ? 3 : 4;
  return 1 + lenBytes + rest;
}

const PUBACK = 4;

export interface Sizes {
  show: string;
  /** Payload bytes of one box's state, one leader tempo grid, one take command and one box's reply to it. */
  state: number;
  tempo: number;
  take: number;
  reply: number;
  /** A box name as long as the ones measured (the topics carry it). */
  box: string;
}

export interface Flow {
  flow: string;
  assumption: string;
  inMsgs: number;
  outMsgs: number;
  inBytes: number;
  outBytes: number;
}

/**
 * Per second, for `boxes` boxes (one of them the leader) and one operator client subscribed to the replies: each box
 * subscribes to every box's state and to the leader's tempo, so one state or tempo message in is `boxes` out; a take
 * on cmd/all is one in, `boxes` out, then a reply from every box in, each passed on to the operator.
 */
export function fiftyBoxShow(s: Sizes, boxes = 50): Flow[] {
  const flow = (name: string, assumption: string, ins: number[], outs: number[]): Flow => ({
    flow: name,
    assumption,
    inMsgs: ins.length,
    outMsgs: outs.length,
    // A PUBACK goes back for every PUBLISH: the broker's for what came in, the subscribers' for what went out.
    inBytes: ins.reduce((a, b) => a + b, 0) + PUBACK * outs.length,
    outBytes: outs.reduce((a, b) => a + b, 0) + PUBACK * ins.length,
  });
  const times = (n: number, bytes: number): number[] => Array.from({ length: n }, () => bytes);
  const state = publishBytes(`vjd/${s.show}/box/${s.box}/state`, s.state);
  const tempo = publishBytes(`vjd/${s.show}/leader/tempo`, s.tempo);
  const take = publishBytes(`vjd/${s.show}/cmd/all`, s.take);
  const reply = publishBytes(`vjd/${s.show}/reply/${s.box}/m-xxxxxxxx-xxxxxx`, s.reply);
  return [
    flow('state', `each box 1 change/s (cap 4/s), to all ${boxes} boxes`, times(boxes, state), times(boxes * boxes, state)),
    flow('tempo', `the leader's grid 1/s (at least every 10 s), to all ${boxes}`, [tempo], times(boxes, tempo)),
    flow(
      'take on cmd/all',
      `1/s: ${boxes} deliveries, ${boxes} replies to 1 operator`,
      [take, ...times(boxes, reply)],
      [...times(boxes, take), ...times(boxes, reply)],
    ),
  ];
}

export function total(flows: Flow[]): Flow {
  const t: Flow = { flow: 'total', assumption: '', inMsgs: 0, outMsgs: 0, inBytes: 0, outBytes: 0 };
  for (const f of flows) {
    t.inMsgs += f.inMsgs;
    t.outMsgs += f.outMsgs;
    t.inBytes += f.inBytes;
    t.outBytes += f.outBytes;
  }
  return t;
}
