/**
 * A TCP proxy for fault injection: it forwards a loopback port to a Redis and can
 * - `freeze()`: a network blackhole. Neither direction is read or written any more, nothing is
 *   closed, no RST, no FIN: the client's connection still looks alive, its commands go nowhere
 *   and no reply comes back. New connections are accepted and frozen too. `thaw()` resumes,
 *   delivering what was held (as a healed network delivers retransmitted segments);
 * - `cut()`: reset every connection (RST); new connections are accepted as usual;
 * - `refuse()` / `accept()`: close the listening port (connections are refused, as by a host whose
 *   Redis is down) and open it again on the same port.
 */
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';

interface Pair {
  client: Socket;
  upstream: Socket;
}

export class FaultProxy {
  private server: Server | null = null;
  private readonly pairs = new Set<Pair>();
  private frozen = false;
  /** The port clients connect to. */
  port = 0;

  private constructor(
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {}

  /** Starts a proxy on a free loopback port in front of `upstream` (`redis://host:port`). */
  static async start(upstream: string): Promise<FaultProxy> {
    const url = new URL(upstream);
    const proxy = new FaultProxy(url.hostname, Number(url.port || 6379));
    await proxy.accept();
    return proxy;
  }

  /** `redis://127.0.0.1:<port>` of the proxy. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Connections open through the proxy. */
  get connections(): number {
    return this.pairs.size;
  }

  private onConnection(client: Socket): void {
    const upstream = new Socket();
    const pair = { client, upstream };
    this.pairs.add(pair);
    const close = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', close);
      socket.on('close', close);
    }
    // pipe() would keep writing what it already read; data events let a freeze stop both ways at once
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    if (this.frozen) {
      client.pause();
      upstream.pause();
    }
    upstream.connect(this.upstreamPort, this.upstreamHost);
  }

  /** Opens the listening port (the same port again after {@link refuse}). */
  async accept(): Promise<void> {
    if (this.server !== null) return;
    const server = createServer((socket) => this.onConnection(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Closes the listening port: new connections are refused; open ones are reset. */
  async refuse(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.cut();
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Stops reading and writing in both directions on every connection, present and future. */
  freeze(): void {
    this.frozen = true;
    for (const { client, upstream } of this.pairs) {
      client.pause();
      upstream.pause();
    }
  }

  /** Resumes every connection; what was held is delivered. */
  thaw(): void {
    this.frozen = false;
    for (const { client, upstream } of this.pairs) {
      client.resume();
      upstream.resume();
    }
  }

  /** Resets every connection (RST to the client). */
  cut(): void {
    for (const { client, upstream } of [...this.pairs]) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  /** Closes everything. */
  async close(): Promise<void> {
    this.frozen = false;
    await this.refuse();
  }
}
