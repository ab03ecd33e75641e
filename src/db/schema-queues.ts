import type { Generated } from 'kysely';

// The shapes of the service's queues, beside the records of schema.ts: the webhook outbox and
// its deliveries, and the import jobs.

/** Where a project's events go (migration 010; docs/API.md, "Webhooks"). */
export interface WebhookEndpointTable {
  id: Generated<number>;
  project_id: string;
  url: string;
  /** the event types sent, space-separated; empty: every type */
  events: string;
  /** whsec_…: signs every delivery */
  secret: string;
  /** during a secret roll: the old secret, which also signs until previous_secret_until */
  previous_secret: string | null;
  previous_secret_until: number | null;
  /** unix seconds; set when a receiver answered 410 (deliveries wait until it is enabled) */
  disabled_at: number | null;
  disabled_reason: string | null;
  created_at: number;
}

/** One event, its body exactly as sent; the id is the webhook-id header. */
export interface WebhookMessageTable {
  id: string;
  project_id: string;
  type: string;
  payload: string;
  created_at: number;
}

/** A message for one endpoint. Times in milliseconds: the worker's schedule and leases. */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  message_id: string;
  endpoint_id: number;
  status: Generated<'pending' | 'succeeded' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: number;
  /** the process delivering it now, until lease_until: no other process claims it meanwhile */
  lease_owner: string | null;
  lease_until: number | null;
  /** unix seconds when it succeeded or failed for good */
  finished_at: number | null;
}

export interface WebhookAttemptTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_at: number;
  /** the receiver's HTTP status; null when there was no answer (refused, timed out) */
  status: number | null;
  duration_ms: number;
  /** the first 1 KiB of the answer's body */
  response: Generated<string>;
  error: string | null;
}

/** An import over HTTP (migration 013, src/imports/): the job, its outcome and, while it runs, its lease. */
export interface ImportJobTable {
  id: Generated<number>;
  project_id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';
  /** 1: check everything, write nothing */
  dry_run: number;
  format: 'json' | 'ndjson' | 'csv';
  /** the size of the uploaded file */
  bytes: number;
  records_read: Generated<number>;
  /** 0 to 1 */
  progress: Generated<number>;
  /** JSON: { <kind>: { upserted, deleted } }; null until the import ends */
  counts: string | null;
  /** JSON: [{ place, message }], the first 100 */
  errors: string | null;
  errors_total: Generated<number>;
  /** how a CSV's rows apply: merge (only its columns) or replace (whole records) (migration 016) */
  mode: Generated<'merge' | 'replace'>;
  /** JSON: { <kind>: { created, updated, unchanged, deleted, fields } }; null until the import ends */
  changes: string | null;
  /** JSON: [{ place, field, message }], the first 100 */
  warnings: string | null;
  warnings_total: Generated<number>;
  /** the change-feed cursor from just before the import's write */
  cursor_before: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** the host whose disk holds the spool file: only a process there can run the job */
  spool_host: string;
  /** the uploaded file until the job ends; null afterwards */
  spool_path: string | null;
  /** the process running it, until lease_until (milliseconds): renewed while it runs */
  lease_owner: string | null;
  lease_until: number | null;
  /** 1: a cancel was asked of another process's running job */
  cancel_requested: Generated<number>;
}
