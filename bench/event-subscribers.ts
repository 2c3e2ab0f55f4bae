/**
 * Worker thread of bench/event-latency.ts: holds the graphql-ws subscribers (one WebSocket each),
 * so that their message handling does not delay the main thread's commit timestamps. Arrival
 * times are `performance.timeOrigin + performance.now()`, comparable across threads.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

interface Setup {
  url: string;
  /** Subscriber k connects with authorizations[k % length]: one audience per authorization. */
  authorizations: string[];
  count: number;
  query: string;
}

const { url, authorizations, count, query } = workerData as Setup;
const now = () => performance.timeOrigin + performance.now();
/** Per application id: when each subscriber received its event, and that subscriber's audience. */
const arrivals = new Map<number, Array<{ at: number; audience: number }>>();
const clients: Client[] = [];
let closing = false;

async function subscribeOne(index: number): Promise<void> {
  const authorization = authorizations[index % authorizations.length]!;
  const client = createClient({ url, webSocketImpl: WebSocket, lazy: false, retryAttempts: 0, onNonLazyError: () => {}, connectionParams: { authorization } });
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    client.on('error', reject);
    client.subscribe<{ applicationStatusChanged: { applicationId: number } }>(
      { query },
      {
        next: (result) => {
          const id = result.data?.applicationStatusChanged.applicationId;
          if (id === undefined) return void parentPort!.postMessage({ type: 'error', error: JSON.stringify(result.errors) });
          let times = arrivals.get(id);
          if (!times) arrivals.set(id, (times = []));
          times.push({ at: now(), audience: index % authorizations.length });
        },
        error: (error) => closing || parentPort!.postMessage({ type: 'error', error: error instanceof Error ? error.message : JSON.stringify(error) }),
        complete: () => {},
      },
    );
  });
}

// Connect in batches: 1,000 simultaneous handshakes would only measure the connection storm.
for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => subscribeOne(i + k)));
parentPort!.postMessage({ type: 'connected' });

parentPort!.on(
  'message',
  async (message: { type: 'collect'; applicationId: number; audience: number; expected: number; timeoutMs: number } | { type: 'close' }) => {
    if (message.type === 'close') {
      closing = true;
      await Promise.all(clients.map((c) => c.dispose()));
      return void parentPort!.postMessage({ type: 'closed' });
    }
    const deadline = Date.now() + message.timeoutMs;
    while ((arrivals.get(message.applicationId)?.length ?? 0) < message.expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
    const received = arrivals.get(message.applicationId) ?? [];
    arrivals.delete(message.applicationId);
    const times = received.filter((r) => r.audience === message.audience).map((r) => r.at);
    parentPort!.postMessage({ type: 'collected', applicationId: message.applicationId, times, foreign: received.length - times.length });
  },
);
