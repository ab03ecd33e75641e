// Query objects to query strings. Values go out exactly as given (no defaults are added), so
// the API still decides every rule; undefined means "not sent".

export type QueryValue = string | number | boolean | undefined | null;

export function queryString(query: object | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query) as [string, QueryValue][]) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** A product, category, plan, user or order reference as one path segment. */
export function segment(ref: string | number): string {
  return encodeURIComponent(String(ref));
}
