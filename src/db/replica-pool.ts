import type pg from 'pg';
import type { PoolLike } from './pg-pool.js';

// A replica's pool as Kysely sees it. A read must never fail because a replica did
// (CONTRACT 16): when the replica cannot be reached, closes the connection mid-statement (it
// was stopped or restarted), refuses connections while it starts, or cancels a statement that
// conflicts with the WAL it replays, the replica is reported failed (it is left out until its
// next good probe, replicas.ts) and the statement runs again on the primary, unnamed (a name
// belongs to the replica's sessions). The primary has every row the replica had, and more:
// what a request reads after that is as new as what a request on the primary reads.
//
// Not inside a transaction: a read that holds one snapshot over several statements (an
// export's, the change feed's exact snapshot) cannot have one of them answered by the primary,
// whose state is another. There the failure ends the transaction with `SnapshotLost`, and the
// read restarts whole on the primary (Reads.longSnapshot, reads.ts); the replica's connection
// is dropped, not pooled (it may still hold the aborted transaction).

export interface ReplicaLink {
  /** a statement the replica answered */
  served(): void;
  /** a statement the primary answered in its place */
  servedByPrimary(): void;
  /** the replica failed: leave it out until it answers a probe again */
  failed(error: unknown): void;
}

type Query = (text: unknown, values?: unknown[]) => unknown;

/** A replica failed inside a transaction: its snapshot is gone, and no statement of it was run elsewhere. */
export class SnapshotLost extends Error {
  constructor(readonly replicaError: unknown) {
    super(`the replica's snapshot was lost: ${(replicaError as Error)?.message ?? String(replicaError)}`);
  }
}

const BEGINS = /^\s*(begin|start\s+transaction)\b/i;
const ENDS = /^\s*(commit|rollback|end)\b/i;

export function fallingBack(replica: PoolLike, primary: PoolLike, link: ReplicaLink): PoolLike {
  const onPrimary = async (text: unknown, values?: unknown[]) => {
    const client = await primary.connect();
    try {
      const result = await client.query(unnamed(text) as string, values);
      link.servedByPrimary();
      return result;
    } finally {
      client.release();
    }
  };
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await replica.connect();
      } catch (error) {
        if (!isReplicaFailure(error)) throw error;
        link.failed(error);
        return { query: onPrimary, release: () => {} } as unknown as pg.PoolClient;
      }
      let inTransaction = false;
      let lost: SnapshotLost | undefined;
      const query: Query = (text, values) => {
        const sqlText = String(unnamed(text));
        if (lost) {
          // The transaction's end after the loss: nothing left to end (the connection is dropped
          // at release); any other statement of the lost transaction fails the same way.
          if (!ENDS.test(sqlText)) return Promise.reject(lost);
          inTransaction = false;
          return Promise.resolve({ command: 'ROLLBACK', rowCount: null, rows: [], fields: [] });
        }
        if (BEGINS.test(sqlText)) inTransaction = true;
        else if (ENDS.test(sqlText)) inTransaction = false;
        const within = inTransaction || ENDS.test(sqlText);
        const result = (client.query as Query)(text, values);
        // A cursor (Kysely's streams) is returned as it is, and not run again.
        if (!(result instanceof Promise)) return result;
        return (result as Promise<unknown>).then(
          (rows) => {
            link.served();
            return rows;
          },
          (error: unknown) => {
            if (!isReplicaFailure(error)) throw error;
            link.failed(error);
            if (!within) return onPrimary(text, values);
            lost = new SnapshotLost(error);
            inTransaction = true;
            throw lost;
          },
        );
      };
      return {
        query,
        release: (err?: Error | boolean) => client.release(lost ? true : err),
      } as unknown as pg.PoolClient;
    },
    end: () => replica.end(),
  };
}

/** A statement config without its name; a text as it is. */
function unnamed(text: unknown): unknown {
  if (text && typeof text === 'object' && 'text' in text) {
    const { text: sqlText } = text as { text: string };
    return sqlText;
  }
  return text;
}

// Class 08: connection exceptions; 57P01-57P03: the server shuts down or is starting; 40001
// on a standby: a statement (or, idle in a transaction, the session) cancelled by a conflict
// with recovery, and 40P01 the same when the conflict is a buffer-pin deadlock with the
// replay. The rest are node's and node-postgres's words for a connection that is gone or
// never came.
const REPLICA_CODES = /^(08...|57P0[123]|40001|40P01)$/;
const GONE =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/;

export function isReplicaFailure(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  return REPLICA_CODES.test(code) || GONE.test(code) || GONE.test(message);
}

/** The primary's pool for its read handle, beside replicas: counts the statements it answers. */
export function counting(pool: PoolLike, count: () => void): PoolLike {
  return {
    async connect() {
      const client = await pool.connect();
      const query: Query = (text, values) => {
        count();
        return (client.query as Query)(text, values);
      };
      return { query, release: (err?: Error | boolean) => client.release(err) } as unknown as pg.PoolClient;
    },
    end: () => pool.end(),
  };
}
