/**
 * `COPY … FROM STDIN` on a pg client: PostgreSQL's bulk-load protocol, several times faster than
 * INSERT for the rows of a register import. pg has no COPY API of its own; this is the small
 * "submittable" its client runs (the same protocol messages as pg-copy-streams, without adding it).
 * Rows are given as arrays of field values (null for NULL) and sent in the text format.
 */
import type pg from 'pg';

/** One field in COPY's text format: NULL is \N; backslash, tab, newline and carriage return escaped. */
function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** The rows as one COPY text payload (one batch: its size is the batch's, never the file's). */
function copyText(rows: ReadonlyArray<ReadonlyArray<string | null>>): Buffer {
  return Buffer.from(rows.map((row) => row.map(copyField).join('\t')).join('\n') + (rows.length ? '\n' : ''), 'utf8');
}

interface PgConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

class CopyFrom {
  private error: Error | undefined;
  private rowCount = 0;
  constructor(
    readonly text: string,
    private readonly payload: Buffer,
    private readonly done: (err: Error | undefined, rows: number) => void,
  ) {}
  submit(connection: PgConnection) {
    connection.query(this.text);
  }
  handleCopyInResponse(connection: PgConnection) {
    // In chunks below the protocol's message size a server accepts comfortably.
    for (let at = 0; at < this.payload.length; at += 65_536) connection.sendCopyFromChunk(this.payload.subarray(at, at + 65_536));
    connection.endCopyFrom();
  }
  handleCommandComplete(msg: { text?: string }) {
    this.rowCount = Number(/(\d+)$/.exec(msg.text ?? '')?.[1] ?? 0);
  }
  handleReadyForQuery() {
    this.done(this.error, this.rowCount);
  }
  handleError(err: Error) {
    this.error = err;
  }
  // Messages a COPY FROM never receives, present because the client calls them on any active query.
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyData() {}
}

/** Runs `COPY table (columns) FROM STDIN` on the client with the rows; resolves the number written. */
export function copyFrom(client: pg.ClientBase, statement: string, rows: ReadonlyArray<ReadonlyArray<string | null>>): Promise<number> {
  return new Promise((resolve, reject) => {
    const submittable = new CopyFrom(statement, copyText(rows), (err, count) => (err ? reject(err) : resolve(count)));
    (client as unknown as { query(q: unknown): void }).query(submittable);
  });
}
