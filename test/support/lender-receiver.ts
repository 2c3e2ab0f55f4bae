/** A real local lender webhook receiver for tests: records every request, answers as told. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The path it was sent to (several endpoints can share one receiver, each at a path of its own). */
  path: string;
}

type ReceiverAnswer = number | 'hang' | { status: number; headers?: Record<string, string>; body?: string | Buffer };

export interface LenderReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** What to answer, in order (a status, or a status with headers and a body); after the list runs out, 204. `hang` never answers. */
  answers: Array<ReceiverAnswer>;
  /** Per path: what to answer there, in order, before `answers` is consulted. */
  answersAt: Map<string, ReceiverAnswer[]>;
  close(): Promise<void>;
}

export async function startLenderReceiver(): Promise<LenderReceiver> {
  const receiver = { received: [] as ReceivedWebhook[], answers: [] as ReceiverAnswer[], answersAt: new Map<string, ReceiverAnswer[]>() };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      receiver.received.push({ headers: req.headers, body, path });
      const answer = receiver.answersAt.get(path)?.shift() ?? receiver.answers.shift() ?? 204;
      if (answer === 'hang') return;
      if (typeof answer === 'number') res.writeHead(answer).end();
      else res.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    get received() {
      return receiver.received;
    },
    get answers() {
      return receiver.answers;
    },
    answersAt: receiver.answersAt,
    set answers(value) {
      receiver.answers = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  } as LenderReceiver;
}

/** Waits until `check` holds (polling), failing after `timeoutMs` with what was last seen. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!check(last)) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}
