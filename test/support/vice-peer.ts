/**
 * A VICE binary monitor peer on a stream, for the client's reassembly: it answers each request with the reply
 * `answer` gives, cut into chunks of `chunk` bytes (1: a byte at a time), pushed as a socket would deliver them.
 */
import { Duplex } from 'node:stream';
import { encodeResponse } from '../../src/connectors/vice/protocol.js';

export function chunkedPeer(answer: (command: number) => Buffer, chunk: number): Duplex {
  const peer: Duplex = new Duplex({
    read() {},
    write(frame: Buffer, _enc, done) {
      const reply = encodeResponse(frame[10], 0, frame.readUInt32LE(6), answer(frame[10]));
      if (chunk >= reply.length) peer.push(reply);
      else for (let at = 0; at < reply.length; at += chunk) peer.push(reply.subarray(at, at + chunk));
      done();
    },
  });
  return peer;
}

/** A peer that answers every request with VICE's error reply (type 0x00, `code`, the request's id, no body). */
export function errorPeer(code: number): Duplex {
  const peer: Duplex = new Duplex({
    read() {},
    write(frame: Buffer, _enc, done) {
      peer.push(encodeResponse(0x00, code, frame.readUInt32LE(6)));
      done();
    },
  });
  return peer;
}
