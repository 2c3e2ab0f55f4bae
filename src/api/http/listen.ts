/** Starting and stopping HTTP servers, with the actual port (PORT=0 picks a free one). */
import type { Server } from 'node:http';

/** A started HTTP server of any of the run modes. */
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shownHost}:${address.port}`;
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
