/**
 * Typed SQL for the hot reads: Kysely over the same `pg` pool Prisma's adapter uses. Prisma stays the
 * schema, the migrations and the write path; the reads every request or list page makes run here,
 * because Prisma serializes and compiles every query (raw SQL included) in WebAssembly with no plan
 * cache, which doubled a REST read's CPU (issue 28). The row types are generated from the Prisma
 * schema (`prisma-kysely`, src/generated/kysely), so a renamed column fails the type check.
 *
 * Every statement runs as a named prepared statement: PostgreSQL parses and plans it once per
 * connection, and pg skips the parse round trip after the first use.
 */
import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DB } from '../generated/kysely/database.js';

export type { DB } from '../generated/kysely/database.js';
export type SqlReads = Kysely<DB>;
/**
 * A PostgreSQL transaction on the same pool, for the one hot write that is not Prisma's: a lender
 * application's status change (lender-applications/status-change-store.ts says why).
 */
type SqlTransaction = Transaction<DB>;

/** Names are derived from the text, so one text always has one name on every connection. */
const statementNames = new Map<string, string>();
/** Statements are built from code, not from input, so their number is small; the bound is a guard. */
const MAX_NAMED_STATEMENTS = 2_000;

const pgTypes = pg.types;

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name) return name;
  if (statementNames.size >= MAX_NAMED_STATEMENTS) return undefined;
  name = `fg_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
  statementNames.set(text, name);
  return name;
}

const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;

/**
 * Prisma stores DateTime as `timestamp(3)` (no zone) holding UTC; pg's default parser would read
 * it in the process's local zone. Parsed as UTC here, as Prisma reads it, on this pool's reads
 * only (pg's global parsers are left alone: Prisma's adapter shares the module).
 */
const readTypes = {
  getTypeParser(oid: number, format?: string): (value: string) => unknown {
    if (oid === TIMESTAMP_WITHOUT_TIME_ZONE) return (value) => new Date(`${value.replace(' ', 'T')}Z`);
    return pgTypes.getTypeParser(oid, format as 'text') as (value: string) => unknown;
  },
};

/**
 * Kysely's own transaction statements (begin, commit, rollback, savepoints): nothing to plan, so
 * they go as simple queries, one message each way, rather than prepared ones (bind, describe,
 * execute, sync). Every status change sends two of them.
 */
const TRANSACTION_CONTROL = /^(begin|start transaction|commit|rollback|savepoint|release savepoint)\b/;

/** A pool whose clients send Kysely's statements as named (prepared) statements, but for its transaction control. */
function preparingPool(pool: pg.Pool): pg.Pool {
  return new Proxy(pool, {
    get(target, property, receiver) {
      if (property !== 'connect') return Reflect.get(target, property, receiver) as unknown;
      return async () => {
        const client = await target.connect();
        return new Proxy(client, {
          get(c, p, r) {
            if (p !== 'query') return Reflect.get(c, p, r) as unknown;
            return (text: unknown, values?: unknown[]) => {
              if (typeof text !== 'string') return c.query(text as pg.QueryConfig, values);
              const name = TRANSACTION_CONTROL.test(text) ? undefined : statementName(text);
              return c.query(name ? { name, text, values, types: readTypes } : { text, values, types: readTypes });
            };
          },
        });
      };
    },
  });
}

export function createSqlReads(pool: pg.Pool): SqlReads {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
}
