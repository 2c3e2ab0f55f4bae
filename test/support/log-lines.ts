/** A logger's JSON lines, kept in memory for a test to read (pino writes one JSON document per line). */
import { Writable } from 'node:stream';

/** `lines` parsed; `raw` as written (a key written twice is visible only there). */
export function capturedLogLines(): { stream: Writable; lines: Array<Record<string, unknown>>; raw: string[] } {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { stream, lines, raw };
}
