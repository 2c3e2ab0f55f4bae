/**
 * A TCP proxy in front of a test app, so a test can cut every open connection (the browser sees
 * the server close its WebSocket) and refuse new ones for a while, without any hook in production code.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttableProxy {
  url: string;
  /** Closes every open connection from the server's side and refuses new ones until `resume`. */
  cut(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startCuttableProxy(targetUrl: string): Promise<CuttableProxy> {
  const target = new URL(targetUrl);
  const open = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) return client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    open.add(client);
    open.add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      refusing = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    resume() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
