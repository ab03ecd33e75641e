import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Import } from 'storefront-client';
import { ListTable } from './list-table.js';

// What an import changes (CONTRACT 14, "Only what you meant"), as a dry run reports it before
// "apply" and the finished import after: by record type the records new, changed, unchanged
// and deleted, for the changed ones how many change each field, and the warnings (values
// that look damaged by a spreadsheet: each says the stored value and the file's). The API
// lists the first 100 warnings; the screen shows the first few and the rest on request.

const FIRST_WARNINGS = 5;

type Kind = keyof Import['changes'];

export function ImportChanges({ item }: { item: Import }): JSX.Element {
  const kinds = (Object.keys(item.changes) as Kind[]).filter((k) => {
    const c = item.changes[k];
    return c.created + c.updated + c.unchanged + c.deleted > 0;
  });
  const would = item.dry_run;
  return (
    <div class="import-changes">
      <h3>{would ? 'What applying it would change' : 'What it changed'}</h3>
      {kinds.length === 0 ? (
        <p>No records in the file.</p>
      ) : (
        <div
          class="table-wrap"
          tabIndex={0}
          role="region"
          aria-label="What the import changes, by record type (scrolls sideways on a narrow screen)"
        >
          <ListTable
            caption={would ? 'Records the import would change, by type' : 'Records the import changed, by type'}
            quietCaption
            columns={[
              'Records',
              { label: 'New', num: true },
              { label: 'Changed', num: true },
              { label: 'Unchanged', num: true },
              { label: 'Deleted', num: true },
            ]}
          >
            {kinds.map((k) => {
              const c = item.changes[k];
              return (
                <tr key={k}>
                  <th scope="row">{k}</th>
                  <td class="num">{c.created.toLocaleString()}</td>
                  <td class="num">{c.updated.toLocaleString()}</td>
                  <td class="num">{c.unchanged.toLocaleString()}</td>
                  <td class="num">{c.deleted.toLocaleString()}</td>
                </tr>
              );
            })}
          </ListTable>
        </div>
      )}
      {kinds
        .filter((k) => Object.keys(item.changes[k].fields).length > 0)
        .map((k) => (
          <p key={k} class="changed-fields">
            Changed {k}, by field:{' '}
            {Object.entries(item.changes[k].fields)
              .sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
              .map(([name, n], i) => (
                <span key={name}>
                  {i > 0 && ' · '}
                  <code>{name}</code> in {n.toLocaleString()}
                </span>
              ))}
          </p>
        ))}
      <ImportWarnings item={item} />
    </div>
  );
}

/** The warnings (the first few, the rest on request), and how many the API left unlisted. */
function ImportWarnings({ item }: { item: Import }): JSX.Element | null {
  const [allWarnings, setAllWarnings] = useState(false);
  if (item.warnings_total === 0) return null;
  const would = item.dry_run;
  const warnings = allWarnings ? item.warnings : item.warnings.slice(0, FIRST_WARNINGS);
  const unlisted = item.warnings_total - item.warnings.length;
  return (
    <section class="notice import-warnings" aria-labelledby={`warnings-${item.id}`}>
      <h3 id={`warnings-${item.id}`}>
        {item.warnings_total.toLocaleString()} {item.warnings_total === 1 ? 'warning' : 'warnings'}: values that look
        damaged by a spreadsheet
      </h3>
      <p class="muted">
        {would
          ? 'Warnings do not stop the import: read them before applying it, and fix the file if they are right.'
          : 'The import wrote these values as the file had them.'}
      </p>
      <ul>
        {warnings.map((w, i) => (
          <li key={i}>
            <code>{w.place}</code> · <code>{w.field}</code>: {w.message}
          </li>
        ))}
      </ul>
      {item.warnings.length > FIRST_WARNINGS && (
        <button type="button" class="link" onClick={() => setAllWarnings(!allWarnings)}>
          {allWarnings ? `Show the first ${FIRST_WARNINGS}` : `Show all ${item.warnings.length} listed`}
        </button>
      )}
      {unlisted > 0 && <p class="muted">and {unlisted.toLocaleString()} more, not listed (the first 100 are)</p>}
    </section>
  );
}
