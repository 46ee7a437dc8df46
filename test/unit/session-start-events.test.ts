/**
 * A client that subscribes right after start() returns (the DAP adapter does) hears every phase of the launch,
 * also the notes a launcher gives before its first await (native DOSBox saying it staged a program under a DOS
 * name). On the toy connector.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LaunchConfig } from '../../src/core/launch.js';
import type { ConnectorDescriptor } from '../../src/connectors/descriptor.js';
import { SessionManager } from '../../src/session/manager.js';
import { toyConnector } from '../support/toy-connector/descriptor.js';
import { launchToyTarget } from '../support/toy-connector/toy-target.js';

test("a launcher's synchronous first note reaches a client that subscribed after start()", async () => {
  const connector: ConnectorDescriptor = {
    ...toyConnector,
    launch: (_config, opts) => {
      opts.onProgress?.('staged a stand-in');
      return launchToyTarget();
    },
  };
  const manager = new SessionManager({ connectors: [connector] });
  try {
    const me = manager.start({ machine: 'toy', emulator: 'toy', program: 'a.bin' } as unknown as LaunchConfig, {
      kind: 'cli',
      label: 'test',
    });
    const heard: string[] = [];
    me.onEvent((e) => {
      if (e.event.type === 'phase') heard.push(e.event.message);
    });
    await me.whenReady(5_000);
    assert.deepEqual(heard.slice(0, 2), ['Starting toy for toy', 'staged a stand-in']);
  } finally {
    await manager.closeAll();
  }
});
