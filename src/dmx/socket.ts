// The DMX receiver's UDP socket: bound to dmx.host and the port, joined to the sACN universe's multicast group
// where a desk could send to it. A port that cannot be bound leaves DMX off rather than stopping the server.
import { createSocket, type Socket } from 'node:dgram';
import type { Logger } from '../log.js';
import type { DmxConfig as DmxSettings } from '../config/desks.js';
import { isLoopbackHost } from '../util/network.js';
import { sacnGroup } from './wire.js';

/** The bound socket handing each datagram to `receive`, or null (logged) when the port could not be bound. */
export function bindDmxSocket(
  s: DmxSettings,
  port: number,
  log: Logger,
  receive: (data: Buffer, from: string) => void,
): Promise<Socket | null> {
  // sACN receivers share the port to each hear the multicast groups; Art-Net's port stays exclusive, as OSC's does.
  const socket = createSocket({ type: s.host.includes(':') ? 'udp6' : 'udp4', reuseAddr: s.protocol === 'sacn' });
  return new Promise((resolve) => {
    socket.once('error', (err) => {
      log.error({ host: s.host, port, err: err.message }, 'DMX could not listen; DMX control is off');
      socket.close();
      resolve(null);
    });
    socket.bind(port, s.host, () => {
      socket.removeAllListeners('error');
      socket.on('error', (err) => log.warn({ err: err.message }, 'DMX socket error'));
      socket.on('message', (data, rinfo) => receive(data, rinfo.address));
      // sACN desks send to the universe's multicast group; a loopback socket only hears unicast.
      if (s.protocol === 'sacn' && !isLoopbackHost(s.host)) {
        try {
          socket.addMembership(sacnGroup(s.universe));
        } catch (err) {
          log.warn({ group: sacnGroup(s.universe), err: (err as Error).message }, 'sACN multicast join failed; unicast only');
        }
      }
      resolve(socket);
    });
  });
}
