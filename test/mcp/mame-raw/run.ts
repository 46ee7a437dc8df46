/**
 * One raw-abilities run: a SessionManager behind the MCP HTTP server, one agent (the real SDK client) and the
 * session it starts on a subject machine; the ability groups (memory.ts, watch.ts, input.ts, steps.ts) register
 * their tests on it in order, each continuing from where the one before left the program.
 */
import { after, before } from 'node:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../../src/session/manager.js';
import { CONNECTORS } from '../../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../../src/mcp/http.js';
import { call, connectHttpClient, startHttpServerOn, type Structured } from '../mcp-helpers.js';
import type { KeyBuffer } from '../mame-helpers.js';
import type { Built, RawSubject } from './subjects.js';

export class RawRun {
  manager!: SessionManager;
  agent!: Client;
  built!: Built;
  sessionId = '';
  keyBuffer?: KeyBuffer;
  private server?: HttpMcpServer;

  constructor(readonly subject: RawSubject) {
    before(async () => {
      this.built = await subject.build();
      this.manager = new SessionManager({ connectors: CONNECTORS });
      this.server = await startHttpServerOn(this.manager, { outputDir: mkdtempSync(join(tmpdir(), 'mame-raw-out-')) });
      this.agent = await connectHttpClient(this.server, `raw-agent-${subject.machine}`);
    });
    after(async () => {
      await this.agent?.close().catch(() => undefined);
      await this.server?.close();
      await this.manager?.closeAll();
    });
  }

  /** start_session's arguments for this machine and program */
  get startArgs(): Record<string, unknown> {
    return { machine: this.subject.machine, ...this.built.start };
  }

  marker(name: string): { file: string; line: number } {
    const m = this.built.markers[name];
    if (!m) throw new Error(`no LINE:${name} marker in the ${this.subject.machine} program`);
    return m;
  }

  /** A C global's value and address, read through the session. */
  async global(name: string): Promise<Structured> {
    return (await call(this.agent, 'evaluate', { expression: name })).result;
  }

  async running(): Promise<void> {
    const st = await call(this.agent, 'session_status');
    if (st.state !== 'running') await call(this.agent, 'resume', { wait: false });
  }

  async stopped(): Promise<Structured> {
    return call(this.agent, 'pause', { wait: true, timeout_ms: 10_000 });
  }

  async register(name: string): Promise<number> {
    return (await call(this.agent, 'read_registers')).registers.find((r: Structured) => r.name === name).value;
  }
}
