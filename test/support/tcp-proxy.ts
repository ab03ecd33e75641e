import { type Server, type Socket, createServer, connect } from 'node:net';

// A loopback TCP proxy in front of PostgreSQL, for outage tests that must never touch the
// real server (others test against it). `stop()` refuses new connections and cuts every
// open one, as a crashed database or a pulled cable would; `start()` brings it back on
// the same port, so clients configured with that port reconnect by themselves.

export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;
  /** connections accepted since the proxy was made: proof that traffic went through it */
  accepted = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  get running(): boolean {
    return this.server !== undefined;
  }

  async start(): Promise<number> {
    if (this.server) return this.port;
    const server = createServer((client) => {
      this.accepted++;
      if (this.frozen) {
        // A partition: the connection opens but nothing ever comes back.
        this.sockets.add(client);
        client.on('close', () => this.sockets.delete(client));
        client.on('error', () => client.destroy());
        client.pause();
        return;
      }
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        // Either side failing ends both: the client sees its connection cut.
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : this.port;
    return this.port;
  }

  private frozen = false;

  /**
   * A network partition without any reset: open connections stop carrying data and new
   * ones open but are never answered. Clients notice only through their own timeouts.
   */
  freeze(): void {
    this.frozen = true;
    for (const s of this.sockets) {
      s.unpipe();
      s.pause();
    }
  }

  /** Refuses new connections and destroys every open one. */
  async stop(): Promise<void> {
    this.frozen = false;
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
