import type { Insertable, Kysely, Transaction } from 'kysely';
import type {
  CategoryTable,
  Database,
  OrderItemTable,
  OrderTable,
  PlanPriceTable,
  PlanTable,
  ProductTable,
  SubscriptionTable,
  UserTable,
} from '../db/schema.js';
import { isPostgres } from '../db/dialect.js';
import { unnestInsert } from '../db/unnest-insert.js';
import type { ErrorDetail } from '../errors.js';
import { nameKey, searchText } from '../resources/products/present.js';
import { upsertProject } from '../resources/projects/repository.js';
import type {
  CategoryRecord,
  Kind,
  OrderRecord,
  PlanRecord,
  ProductRecord,
  ProjectRecord,
  UserRecord,
} from './records.js';
import { Places } from './places.js';
import { checkRecord } from './validate.js';

// One import: records arrive one at a time (from a JSON document or an NDJSON stream), are
// validated, given defaults and ids, and written in batches inside the caller's transaction.
// References between records are checked at the end, when every record is in. Problems are
// collected with each record's place; the caller rolls back when there are any.
//
// Memory stays bounded by the batch, not the file: a handle is checked against the batch
// being gathered and then against the database, which holds every earlier batch of the file
// (batches go on being written after a problem, so that later ones are still checked); only
// each record's place is kept for the whole file (places.ts, 16 bytes a record).

export type Place = number; // the index in a JSON list, or the line of an NDJSON file
export type PlaceFormat = (kind: Kind | 'project', place: Place) => string;

const BATCH = 500;
const MAX_PROBLEMS = 100;
const TABLES: Record<Kind, keyof Database> = {
  categories: 'categories',
  products: 'products',
  plans: 'plans',
  users: 'users',
  orders: 'orders',
};
/** Tables whose ids are handed out by this session: the record kinds and plan prices. */
const ID_TABLES: Record<Kind | 'prices', keyof Database> = { ...TABLES, prices: 'plan_prices' };

interface Pending<Row> {
  rows: Map<number, Row>;
}

export class ImportSession {
  readonly problems: string[] = [];
  problemCount = 0;
  readonly counts: Record<Kind, number> = { categories: 0, products: 0, plans: 0, users: 0, orders: 0 };
  private project?: ProjectRecord;
  private readonly now = Math.floor(Date.now() / 1000);
  private readonly nextId = new Map<string, number>();
  private readonly places = new Map<Kind, Places>();
  /** handle → id of the batch being gathered */
  private readonly handles = { categories: new Map<string, number>(), products: new Map<string, number>() };
  private readonly pending: { [K in Kind]: Pending<Staged[K]> } = {
    categories: { rows: new Map() },
    products: { rows: new Map() },
    plans: { rows: new Map() },
    users: { rows: new Map() },
    orders: { rows: new Map() },
  };

  constructor(
    private readonly trx: Transaction<Database>,
    private readonly formatPlace: PlaceFormat,
  ) {}

  get projectId(): string | undefined {
    return this.project?.id;
  }

  get ok(): boolean {
    return this.problemCount === 0;
  }

  /** Records a problem as `products[12].price: …` (JSON) or `line 40: price …` (NDJSON). */
  problem(kind: Kind | 'project', place: Place | string, field: string, message: string): void {
    this.problemCount++;
    if (this.problems.length >= MAX_PROBLEMS) return;
    const where = typeof place === 'string' ? place : this.formatPlace(kind, place);
    const byLine = where.startsWith('line ');
    this.problems.push(
      !field ? `${where}: ${message}` : byLine ? `${where}: ${field} ${message}` : `${where}.${field}: ${message}`,
    );
  }

  private report(kind: Kind | 'project', place: Place, details: ErrorDetail[]): void {
    for (const d of details) this.problem(kind, place, d.field, d.message);
  }

  async setProject(value: unknown, place: Place): Promise<boolean> {
    const details = checkRecord('project', value);
    if (details.length) {
      this.report('project', place, details);
      return false;
    }
    this.project = value as ProjectRecord;
    await upsertProject(this.trx, this.project);
    return true;
  }

  async add(kind: Kind, value: unknown, place: Place): Promise<void> {
    const details = checkRecord(kind, value);
    if (details.length === 0 && JSON.stringify(value).includes('\\u0000'))
      details.push({ field: '', message: 'must not contain NUL characters' });
    if (details.length) return this.report(kind, place, details);
    const project = this.project;
    if (!project) return; // the project line was invalid: keep checking records, write nothing
    const id = await this.idFor(kind, (value as { id?: number }).id);
    const staged = this.stage(kind, value, id, place, project);
    if (!staged) return;
    this.counts[kind]++;
    let places = this.places.get(kind);
    if (!places) this.places.set(kind, (places = new Places()));
    places.add(id, place);
    (this.pending[kind].rows as Map<number, unknown>).set(id, staged);
    if (this.pending[kind].rows.size >= BATCH) await this.flush(kind);
  }

  /** The given id, or the highest id in use (stored or seen in this file) plus one. */
  private async idFor(kind: Kind | 'prices', given: number | undefined): Promise<number> {
    let next = this.nextId.get(kind);
    if (next === undefined) {
      const row = await this.trx
        .selectFrom(ID_TABLES[kind] as 'products')
        .select((eb) => eb.fn.max('id').as('max'))
        .where('project_id', '=', this.project!.id)
        .executeTakeFirst();
      next = Number(row?.max ?? 0) + 1;
    }
    const id = given ?? next;
    this.nextId.set(kind, Math.max(next, id + 1));
    return id;
  }

  private stage(
    kind: Kind,
    value: unknown,
    id: number,
    place: Place,
    project: ProjectRecord,
  ): Staged[Kind] | undefined {
    const pid = project.id;
    const created = (v: { created_at?: number }) => v.created_at ?? this.now;
    switch (kind) {
      case 'categories': {
        const c = value as CategoryRecord;
        if (!this.claimHandle('categories', c.handle, id, place)) return undefined;
        const created_at = created(c);
        return {
          row: {
            project_id: pid,
            id,
            handle: c.handle,
            name: c.name,
            name_key: nameKey(c.name),
            parent_id: c.parent_id ?? null,
            created_at,
            updated_at: c.updated_at ?? created_at,
          },
        };
      }
      case 'products': {
        const p = value as ProductRecord;
        if (p.name.trim() === '') return void this.problem(kind, place, 'name', 'must not be only white space');
        if (!this.claimHandle('products', p.handle, id, place)) return undefined;
        const created_at = created(p);
        const description = p.description ?? '';
        const sku = p.sku ?? null;
        return {
          row: {
            project_id: pid,
            id,
            handle: p.handle,
            name: p.name,
            name_key: nameKey(p.name),
            description,
            sku,
            search_text: searchText(p.name, description, sku),
            price: p.price,
            inventory_type: p.inventory_type ?? 'simple',
            in_stock: p.in_stock === false ? 0 : 1,
            stock_quantity: p.stock_quantity ?? 0,
            show_in_store: p.show_in_store === false ? 0 : 1,
            custom_sort: p.custom_sort ?? 0,
            images: JSON.stringify(p.images ?? []),
            created_at,
            updated_at: p.updated_at ?? created_at,
          },
          categoryIds: [...new Set(p.category_ids ?? [])],
        };
      }
      case 'plans': {
        const p = value as PlanRecord;
        const created_at = created(p);
        return {
          row: {
            project_id: pid,
            id,
            name: p.name,
            description: p.description ?? '',
            status: p.status ?? 'active',
            created_at,
            updated_at: p.updated_at ?? created_at,
          },
          prices: (p.prices ?? []).map((x) => ({ ...x, currency: x.currency ?? project.currency })),
        };
      }
      case 'users': {
        const u = value as UserRecord;
        const created_at = created(u);
        return {
          row: {
            project_id: pid,
            id,
            email: u.email,
            name: u.name ?? '',
            email_verified: u.email_verified ? 1 : 0,
            created_at,
            last_login_at: u.last_login_at ?? null,
          },
          subscriptions: (u.subscriptions ?? []).map((s, position) => ({
            project_id: pid,
            user_id: id,
            position,
            plan_id: s.plan_id,
            price_id: s.price_id,
            status: s.status,
            started_at: s.started_at ?? created_at,
            canceled_at: s.canceled_at ?? null,
          })),
        };
      }
      case 'orders': {
        const o = value as OrderRecord;
        const created_at = created(o);
        const items = o.items ?? [];
        return {
          row: {
            project_id: pid,
            id,
            customer_email: o.customer_email,
            email_key: o.customer_email.toLowerCase(),
            customer_name: o.customer_name ?? '',
            total: o.total ?? items.reduce((sum, i) => sum + i.quantity * i.price, 0),
            currency: o.currency ?? project.currency,
            payment_status: o.payment_status ?? 'pending',
            fulfillment_status: o.fulfillment_status ?? 'unfulfilled',
            is_canceled: o.is_canceled ? 1 : 0,
            is_archived: o.is_archived ? 1 : 0,
            delivery_information: o.delivery_information ?? '',
            created_at,
            updated_at: o.updated_at ?? created_at,
          },
          items: items.map((i, position) => ({
            project_id: pid,
            order_id: id,
            position,
            product_id: i.product_id,
            name: i.name,
            quantity: i.quantity,
            price: i.price,
          })),
        };
      }
    }
  }

  /**
   * A handle names one record per project and resource; a second record with it is refused.
   * Here against the batch being gathered; flush() checks the database.
   */
  private claimHandle(kind: 'categories' | 'products', handle: string, id: number, place: Place): boolean {
    const holder = this.handles[kind].get(handle);
    if (holder !== undefined && holder !== id) {
      this.problem(
        kind,
        place,
        'handle',
        `"${handle}" is already used by ${kind === 'products' ? 'product' : 'category'} ${holder} in this file`,
      );
      return false;
    }
    this.handles[kind].set(handle, id);
    return true;
  }

  async flush(kind: Kind): Promise<void> {
    let staged = [...this.pending[kind].rows.values()] as Staged[Kind][];
    this.pending[kind].rows.clear();
    if (kind === 'categories' || kind === 'products') {
      this.handles[kind].clear();
      staged = (await this.withFreeHandles(
        kind,
        staged as { row: { id: number; handle: string } }[],
      )) as Staged[Kind][];
    }
    if (staged.length === 0) return;
    const pid = this.project!.id;
    const ids = staged.map((s) => s.row.id);
    await upsert(
      this.trx,
      TABLES[kind],
      staged.map((s) => s.row),
    );
    const trx = this.trx;
    switch (kind) {
      case 'products': {
        await trx
          .deleteFrom('product_categories')
          .where('project_id', '=', pid)
          .where('product_id', 'in', ids)
          .execute();
        const links = (staged as Staged['products'][]).flatMap((s) =>
          s.categoryIds.map((c) => ({ project_id: pid, product_id: s.row.id, category_id: c })),
        );
        await insert(trx, 'product_categories', links);
        break;
      }
      case 'plans': {
        await trx.deleteFrom('plan_prices').where('project_id', '=', pid).where('plan_id', 'in', ids).execute();
        const prices: Insertable<PlanPriceTable>[] = [];
        for (const s of staged as Staged['plans'][]) {
          for (const p of s.prices) {
            const id = await this.idFor('prices', p.id);
            prices.push({
              project_id: pid,
              id,
              plan_id: s.row.id,
              amount: p.amount,
              currency: p.currency,
              interval: p.interval,
              interval_count: p.interval_count ?? 1,
              trial_days: p.trial_days ?? 0,
            });
          }
        }
        // A price id given twice: the later one wins, as for records.
        const unique = [...new Map(prices.map((p) => [p.id, p])).values()];
        if (unique.length) await upsert(trx, 'plan_prices', unique);
        break;
      }
      case 'users': {
        await trx.deleteFrom('subscriptions').where('project_id', '=', pid).where('user_id', 'in', ids).execute();
        const subs = (staged as Staged['users'][]).flatMap((s) => s.subscriptions);
        await insert(trx, 'subscriptions', subs);
        break;
      }
      case 'orders': {
        await trx.deleteFrom('order_items').where('project_id', '=', pid).where('order_id', 'in', ids).execute();
        const items = (staged as Staged['orders'][]).flatMap((s) => s.items);
        await insert(trx, 'order_items', items);
        break;
      }
    }
  }

  /**
   * The batch without the records whose handle a stored record of another id holds, each
   * refused: a record stored before the import, or one of an earlier batch of this file.
   * (Moving a handle from one stored record to another takes two imports: first rename the
   * holder.)
   */
  private async withFreeHandles<S extends { row: { id: number; handle: string } }>(
    kind: 'categories' | 'products',
    staged: S[],
  ): Promise<S[]> {
    if (staged.length === 0) return staged;
    const held = await this.trx
      .selectFrom(kind)
      .select(['id', 'handle'])
      .where('project_id', '=', this.project!.id)
      .where(
        'handle',
        'in',
        staged.map((s) => s.row.handle),
      ) // one record a handle: claimHandle
      .execute();
    const holders = new Map(held.map((h) => [h.handle, h.id]));
    const taken = new Set<string>();
    const places = this.places.get(kind)!;
    for (const s of staged) {
      const holder = holders.get(s.row.handle);
      if (holder === undefined || holder === s.row.id) continue;
      taken.add(s.row.handle);
      if (this.problems.length >= MAX_PROBLEMS)
        this.problemCount++; // not listed: spare the look-ups
      else {
        const what = kind === 'products' ? 'product' : 'category';
        const where = places.get(holder) === undefined ? '' : ' in this file';
        this.problem(
          kind,
          places.get(s.row.id)!,
          'handle',
          `"${s.row.handle}" is already used by ${what} ${holder}${where}`,
        );
      }
    }
    return taken.size === 0 ? staged : staged.filter((s) => !taken.has(s.row.handle));
  }

  /** Writes what is left and checks every reference between records. */
  async finish(): Promise<void> {
    if (!this.project) return;
    for (const kind of Object.keys(TABLES) as Kind[]) await this.flush(kind);
    if (!this.ok || !this.project) return;
    await this.checkReferences();
  }

  private async checkReferences(): Promise<void> {
    const pid = this.project!.id;
    const db = this.trx as Kysely<Database>;
    const placeOf = (kind: Kind, id: number) => this.places.get(kind)?.get(id);

    // Categories: every parent exists, and no category is its own ancestor.
    const cats = await db.selectFrom('categories').select(['id', 'parent_id']).where('project_id', '=', pid).execute();
    const parent = new Map(cats.map((c) => [c.id, c.parent_id]));
    for (const [id, place] of this.places.get('categories')?.toMap() ?? []) {
      const p = parent.get(id);
      if (p === null || p === undefined) continue;
      if (!parent.has(p))
        this.problem('categories', place, 'parent_id', `refers to category ${p}, which does not exist`);
      else {
        const seen = new Set([id]);
        for (let q: number | null | undefined = p; q !== null && q !== undefined; q = parent.get(q)) {
          if (seen.has(q)) {
            this.problem('categories', place, 'parent_id', 'makes a cycle: a category cannot be its own ancestor');
            break;
          }
          seen.add(q);
        }
      }
    }

    const missingCategories = await db
      .selectFrom('product_categories as pc')
      .leftJoin('categories as c', (j) =>
        j.onRef('c.project_id', '=', 'pc.project_id').onRef('c.id', '=', 'pc.category_id'),
      )
      .select(['pc.product_id', 'pc.category_id'])
      .where('pc.project_id', '=', pid)
      .where('c.id', 'is', null)
      .limit(MAX_PROBLEMS)
      .execute();
    for (const m of missingCategories) {
      this.problem(
        'products',
        placeOf('products', m.product_id) ?? `product ${m.product_id}`,
        'category_ids',
        `refers to category ${m.category_id}, which does not exist`,
      );
    }

    const badSubscriptions = await db
      .selectFrom('subscriptions as s')
      .leftJoin('plan_prices as pp', (j) =>
        j
          .onRef('pp.project_id', '=', 's.project_id')
          .onRef('pp.id', '=', 's.price_id')
          .onRef('pp.plan_id', '=', 's.plan_id'),
      )
      .select(['s.user_id', 's.position', 's.plan_id', 's.price_id'])
      .where('s.project_id', '=', pid)
      .where('pp.id', 'is', null)
      .limit(MAX_PROBLEMS)
      .execute();
    for (const s of badSubscriptions) {
      this.problem(
        'users',
        placeOf('users', s.user_id) ?? `user ${s.user_id}`,
        `subscriptions[${s.position}]`,
        `refers to plan ${s.plan_id} with price ${s.price_id}, which does not exist`,
      );
    }

    const badItems = await db
      .selectFrom('order_items as i')
      .leftJoin('products as p', (j) => j.onRef('p.project_id', '=', 'i.project_id').onRef('p.id', '=', 'i.product_id'))
      .select(['i.order_id', 'i.position', 'i.product_id'])
      .where('i.project_id', '=', pid)
      .where('i.product_id', 'is not', null)
      .where('p.id', 'is', null)
      .limit(MAX_PROBLEMS)
      .execute();
    for (const i of badItems) {
      this.problem(
        'orders',
        placeOf('orders', i.order_id) ?? `order ${i.order_id}`,
        `items[${i.position}].product_id`,
        `refers to product ${i.product_id}, which does not exist (use null for a removed product)`,
      );
    }
  }
}

interface Staged {
  categories: { row: Insertable<CategoryTable> & { id: number } };
  products: { row: Insertable<ProductTable> & { id: number; handle: string }; categoryIds: number[] };
  plans: {
    row: Insertable<PlanTable> & { id: number };
    prices: (NonNullable<PlanRecord['prices']>[number] & { currency: string })[];
  };
  users: { row: Insertable<UserTable> & { id: number }; subscriptions: Insertable<SubscriptionTable>[] };
  orders: { row: Insertable<OrderTable> & { id: number }; items: Insertable<OrderItemTable>[] };
}

/** Plain rows of a record's own table (links, items, subscriptions). */
async function insert(
  trx: Transaction<Database>,
  table: 'product_categories' | 'subscriptions' | 'order_items',
  rows: Record<string, unknown>[],
): Promise<void> {
  if (isPostgres(trx)) return unnestInsert(trx, table, rows);
  // SQLite: within its 32,766 parameters (7 columns at most).
  for (let i = 0; i < rows.length; i += 4000)
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of any record table
    await (trx as Kysely<any>)
      .insertInto(table)
      .values(rows.slice(i, i + 4000))
      .execute();
}

/** INSERT … ON CONFLICT (project_id, id) DO UPDATE: a record whose id exists replaces it whole. */
async function upsert(
  trx: Transaction<Database>,
  table: keyof Database,
  rows: Record<string, unknown>[],
): Promise<void> {
  if (isPostgres(trx)) return unnestInsert(trx, table, rows, ['project_id', 'id']);
  const columns = Object.keys(rows[0]).filter((c) => c !== 'project_id' && c !== 'id');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of any record table
  await (trx as Kysely<any>)
    .insertInto(table)
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'id'])
        .doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)]))),
    )
    .execute();
}
