// Categories nest to any depth, and the route schema says so by referring to itself. Many
// tools dereference every $ref of a document and stop at a cycle (Portman: "Circular $ref
// pointer … Category/subcategories"), so the published document spells a self-referring
// component out to NESTING_DEPTH levels instead; below that, each nested item is described
// as an object of the same shape, without a $ref. The route schema itself, which validates
// and serialises, keeps the true recursion.

type Schema = Record<string, unknown>;

export const NESTING_DEPTH = 8;

const PREFIX = '#/components/schemas/';

/** A copy of the components with every self-referring schema unrolled to NESTING_DEPTH levels. */
export function boundRecursion(schemas: Record<string, Schema>): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    out[name] = refersTo(schema, PREFIX + name)
      ? (unroll(schema, schema, PREFIX + name, NESTING_DEPTH, name) as Schema)
      : schema;
  }
  return out;
}

function refersTo(value: unknown, ref: string): boolean {
  if (Array.isArray(value)) return value.some((v) => refersTo(v, ref));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => (k === '$ref' && v === ref) || refersTo(v, ref));
}

/** `value` with each `$ref` to the root schema replaced by the root itself, `levels` deep. */
function unroll(value: unknown, root: Schema, ref: string, levels: number, name: string): unknown {
  if (Array.isArray(value)) return value.map((v) => unroll(v, root, ref, levels, name));
  if (value === null || typeof value !== 'object') return value;
  if ((value as Schema).$ref === ref) {
    if (levels > 1) return unroll(root, root, ref, levels - 1, name);
    return {
      type: 'object',
      description: `a ${name} nested deeper than ${NESTING_DEPTH} levels: the same shape as ${name}`,
    };
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unroll(v, root, ref, levels, name)]));
}
