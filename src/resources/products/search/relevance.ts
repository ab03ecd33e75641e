import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { candidateWords } from '../../../db/search-words.js';
import type { Database } from '../../../db/schema.js';
import type { MatchCodes } from './vocabulary.js';

// `q` in SQL: the products holding a candidate of every query word, each with its rank. A
// posting's code is the candidate's code (0 the word itself, 1 a prefix, 1 + edits) times two
// plus its field (0 the name, 1 description or SKU); a product keeps its best code per query
// word, and is ranked by the words matched exactly, then the edits, then the words matched in
// the name (CONTRACT 17). Integer arithmetic only, so both backends rank alike.

/** The candidates of each query word (`Vocabulary.match`), in the query's order. */
export type Candidates = MatchCodes[];

/** `r(product_id, exact_n, typos, names)`: every product matching all words, to join. */
interface Rank {
  product_id: number;
  exact_n: number;
  typos: number;
  names: number;
}

export function relevanceTable(db: Kysely<Database>, projectId: string, candidates: Candidates): RawBuilder<Rank> {
  const rows: [number, string, number][] = [];
  candidates.forEach((codes, qi) => {
    for (const [word, code] of codes) rows.push([qi, word, code]);
  });
  return sql<Rank>`(select product_id,
      sum(case when c < 2 then 1 else 0 end) as exact_n,
      sum(case when c >= 4 then c / 2 - 1 else 0 end) as typos,
      sum(case when c % 2 = 0 then 1 else 0 end) as names
    from (select sp.product_id, w.qi, min(w.code * 2 + sp.field) as c
      from ${candidateWords(db, rows)}
      join search_postings sp on sp.project_id = ${projectId} and sp.word = w.word
      group by sp.product_id, w.qi) m
    group by product_id
    having count(*) = ${candidates.length})`;
}

/** The rows joined with their rank (`r`). */
export function withRelevance<QB extends SelectQueryBuilder<Database, 'products', object>>(
  db: Kysely<Database>,
  q: QB,
  projectId: string,
  candidates: Candidates,
): QB {
  const r = relevanceTable(db, projectId, candidates).as('r');
  const rows = q as SelectQueryBuilder<Database, 'products', object>;
  return rows.innerJoin(r, (join) => join.onRef('r.product_id', '=', 'products.id')) as unknown as QB;
}

/** Ordered by rank, best first. */
export function byRelevance<QB extends SelectQueryBuilder<Database, 'products', object>>(q: QB): QB {
  return q
    .orderBy(sql`r.exact_n`, 'desc')
    .orderBy(sql`r.typos`, 'asc')
    .orderBy(sql`r.names`, 'desc') as QB;
}
