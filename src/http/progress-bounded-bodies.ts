import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

// REQUEST_TIMEOUT_MS bounds a whole request, body included: right for the API's bodies of at
// most 64 KiB, wrong for an import upload of up to IMPORT_MAX_BYTES, which takes minutes on an
// ordinary link. Node's requestTimeout is one setting per server: its check reports a request
// that ran out of time through 'clientError' (src/http/early-errors.ts), whose listener decides
// whether the connection is closed. There, a request whose body is bounded by its progress
// instead (the upload's own idle timer, src/imports/spool.ts) is passed over while that body
// arrives; every other request keeps Node's check unchanged, headers included.

const bodiesBoundedByProgress = new WeakSet<Duplex>();

/**
 * From now until the returned release is called, the body of `request` is not cut off at
 * REQUEST_TIMEOUT_MS: the caller bounds it (an idle timer). Once released, the rest of that
 * request is Node's again.
 */
export function boundByProgress(request: IncomingMessage): () => void {
  const socket = request.socket;
  bodiesBoundedByProgress.add(socket);
  return () => bodiesBoundedByProgress.delete(socket);
}

/** The request on `socket` is an upload whose body is bounded by progress, not by REQUEST_TIMEOUT_MS. */
export function isBoundByProgress(socket: Duplex): boolean {
  return bodiesBoundedByProgress.has(socket);
}
