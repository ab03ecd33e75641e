import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { etagOf, sameVersion } from './etag.js';

// Optimistic concurrency for POST updates: `If-Match: <etag>` names the version the client
// read (the ETag of its GET answer, see etag.ts). The check runs inside the update's
// transaction, on the row it has locked, so that no other update can slip in between the
// comparison and the write.

export type Precondition = (current: unknown) => void;

/** The check to run on the current record, or undefined when no If-Match was sent. */
export function ifMatch(request: FastifyRequest, reply: FastifyReply): Precondition | undefined {
  const header = request.headers['if-match'];
  if (header === undefined) return undefined;
  // The same serializer as the 200 answer, so the ETag is the one GET gave.
  const serialize = reply.getSerializationFunction('200') ?? JSON.stringify;
  return (current) => {
    if (!ifMatchHits(header, etagOf(serialize(current)))) {
      throw new ApiError(
        412,
        'the record has changed since it was read: If-Match does not match its current ETag; fetch it again',
        [{ field: 'If-Match', message: 'does not match the current ETag' }],
      );
    }
  };
}

/**
 * The update's check on its stored row, or undefined when no If-Match was sent: the row
 * presented as GET would answer it (`present` may read its parts in the transaction), then
 * compared with the header.
 */
export function ifMatchRow<Db, Row>(
  request: FastifyRequest,
  reply: FastifyReply,
  present: (trx: Db, current: Row) => Promise<unknown>,
): ((trx: Db, current: Row) => Promise<void>) | undefined {
  const precondition = ifMatch(request, reply);
  return precondition && (async (trx, current) => precondition(await present(trx, current)));
}

/**
 * Whether an If-Match value (a list of tags, or `*`) names `etag`'s version. Compared
 * strongly (RFC 9110 13.1.1): a weak tag never matches; the tag of a compressed GET answer
 * names the same version (etag.ts).
 */
export function ifMatchHits(header: string, etag: string): boolean {
  if (header.trim() === '*') return true; // any current version will do
  return header.split(',').some((tag) => sameVersion(tag.trim(), etag));
}
