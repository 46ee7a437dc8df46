/**
 * Who is on the other end of a loopback TCP connection. Loopback TCP lets
 * every user of the machine connect; the kernel's socket tables
 * (/proc/net/tcp, tcp6) name the uid that owns the peer's socket, so a door
 * can refuse another user before reading a byte. Without /proc (not Linux)
 * the owner is unknown and the door's secret is the only check.
 */
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];

const portOf = (hexAddress: string) => parseInt(hexAddress.slice(hexAddress.lastIndexOf(':') + 1), 16);

/** The uid owning the peer's end of `socket` (a loopback connection), or undefined when it cannot be told. */
export function peerUid(socket: Socket): number | undefined {
  const { remotePort, localPort } = socket;
  if (remotePort === undefined || localPort === undefined) return undefined;
  for (const table of TABLES) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid …
      const f = line.trim().split(/\s+/);
      if (f.length < 8) continue;
      // the peer's socket: its local port is our remote one and the other way round
      if (portOf(f[1]!) === remotePort && portOf(f[2]!) === localPort) return Number(f[7]);
    }
  }
  return undefined;
}

/** True when the peer is known to run as another user than this process (then the door says nothing). */
export function fromOtherUser(socket: Socket): boolean {
  const uid = peerUid(socket);
  return uid !== undefined && process.getuid !== undefined && uid !== process.getuid();
}
