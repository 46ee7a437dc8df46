/**
 * An in-process connection between the VICE client and the built-in monitor:
 * two Duplex ends, bytes delivered on the next tick (never re-entrantly, as
 * over a socket), and either end's close closes the other. No port, so
 * nothing else on the machine can reach the built-in C64 of a session.
 */
import { Duplex } from 'node:stream';

export function duplexPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const make = (peer: () => Duplex) =>
    new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        process.nextTick(() => {
          if (!peer().destroyed) peer().push(chunk);
        });
        done();
      },
      final(done) {
        process.nextTick(() => {
          if (!peer().destroyed) peer().push(null);
        });
        done();
      },
    });
  ends.push(
    make(() => ends[1]),
    make(() => ends[0]),
  );
  ends[0].once('close', () => ends[1].destroy());
  ends[1].once('close', () => ends[0].destroy());
  return [ends[0], ends[1]];
}
