/**
 * Starts the extension's MCP HTTP server on first use and keeps one instance.
 * A remembered port is reused when free (so clients configured earlier keep
 * working across reloads) and replaced by a random one when taken; a port the
 * person set explicitly is never replaced silently.
 */
import { RetroError, asRetroError, targetLost } from '../core/errors.js';

export interface RunningMcpServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export type StartMcpServer = (opts: { port: number; token: string }) => Promise<RunningMcpServer>;

export interface PortChoice {
  port: number;
  /** true when the person configured it: no fallback to a random port */
  fixed: boolean;
}

export class LazyMcpEndpoint {
  private starting?: Promise<RunningMcpServer>;
  private server?: RunningMcpServer;
  private closed = false;

  constructor(
    private readonly opts: {
      start: StartMcpServer;
      token: string;
      choosePort: () => PortChoice;
      /** called once the server listens (remember the port, write the discovery file) */
      onStarted?: (server: RunningMcpServer) => Promise<void> | void;
    },
  ) {}

  get running(): RunningMcpServer | undefined {
    return this.server;
  }

  ensureStarted(): Promise<RunningMcpServer> {
    if (this.closed) return Promise.reject(targetLost('The Retro Debug MCP server has been shut down.'));
    this.starting ??= this.startOnce().catch((err) => {
      this.starting = undefined; // a later request may try again
      throw err;
    });
    return this.starting;
  }

  async close(): Promise<void> {
    this.closed = true;
    const server = this.server ?? (await this.starting?.catch(() => undefined));
    this.server = undefined;
    await server?.close();
  }

  private async startOnce(): Promise<RunningMcpServer> {
    const { port, fixed } = this.opts.choosePort();
    let server: RunningMcpServer;
    try {
      server = await this.opts.start({ port, token: this.opts.token });
    } catch (err) {
      if (fixed || port === 0 || !isPortProblem(err)) {
        const e = asRetroError(err);
        throw new RetroError(
          e.code === 'internal' ? 'launch_failed' : e.code,
          `The Retro Debug MCP server could not listen on 127.0.0.1:${port}: ${e.message}`,
        );
      }
      server = await this.opts.start({ port: 0, token: this.opts.token });
    }
    if (this.closed) {
      await server.close();
      throw targetLost('The Retro Debug MCP server was shut down while starting.');
    }
    this.server = server;
    await this.opts.onStarted?.(server);
    return server;
  }
}

function isPortProblem(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  const text = err instanceof Error ? err.message : String(err);
  return code === 'EADDRINUSE' || code === 'EACCES' || /EADDRINUSE|EACCES/.test(text);
}
