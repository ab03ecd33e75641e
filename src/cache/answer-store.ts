import type { Coding } from '../http/content-coding.js';
import { Lru } from './lru.js';

/** One stored answer: the JSON bytes sent, their ETag, and what the CDN headers name. */
export interface CachedAnswer {
  /** the versioned key it is stored under (versioned-key.ts) */
  readonly key: string;
  readonly payload: Buffer;
  readonly etag: string;
  /** the Surrogate-Key names of a public answer (cdn-tags.ts), null for a private one */
  readonly cacheTags: readonly string[] | null;
  /** the compressed bytes, made the first time a client asks for that coding */
  readonly encoded: Partial<Record<Coding, Buffer>>;
  /**
   * For a kind versioned record by record (invalidation.ts, RECORD_VERSIONED): the ids of the
   * records it shows, and the latest version of their type at which it is known to be right.
   */
  readonly records: { readonly ids: readonly number[]; version: number } | null;
}

/**
 * The answer cache's memory (src/plugins/answer-cache.ts): an LRU bounded by the bytes of the
 * answers and of their encodings together, so that compressed copies never push it past
 * STOREFRONT_ANSWER_CACHE_BYTES.
 */
export class AnswerStore {
  private readonly lru: Lru<CachedAnswer>;

  constructor(maxBytes: number) {
    this.lru = new Lru<CachedAnswer>(maxBytes, weigh);
  }

  get(key: string): CachedAnswer | undefined {
    return this.lru.get(key);
  }

  set(answer: CachedAnswer): void {
    this.lru.set(answer.key, answer);
  }

  /** Answers kept (tests). */
  get size(): number {
    return this.lru.size;
  }

  /** Keeps an encoding beside its answer; stored again, so that its weight counts. */
  addEncoding(answer: CachedAnswer, coding: Coding, bytes: Buffer): void {
    answer.encoded[coding] = bytes;
    this.lru.set(answer.key, answer);
  }
}

function weigh(answer: CachedAnswer): number {
  let bytes = answer.payload.length + 64;
  for (const encoded of Object.values(answer.encoded)) bytes += encoded.length;
  return bytes;
}
