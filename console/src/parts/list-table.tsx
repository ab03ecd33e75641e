import type { ComponentChildren, JSX } from 'preact';

// A table of records: its caption (read by screen readers; shown unless `quietCaption`), one
// header row of columns, the rows given as children. Every list of the console is one.

export interface Column {
  /** the header's text (or a control, such as a select-all box) */
  label: ComponentChildren;
  /** a number column: right-aligned */
  num?: boolean;
  /** a header read by screen readers only (an actions column) */
  hidden?: boolean;
}

interface Props {
  caption: string;
  quietCaption?: boolean;
  columns: (Column | string)[];
  class?: string;
  children: ComponentChildren;
  foot?: ComponentChildren;
  /** what a list without rows says instead (false or undefined: nothing) */
  empty?: ComponentChildren;
}

export function ListTable({ caption, quietCaption, columns, class: more, children, foot, empty }: Props): JSX.Element {
  return (
    <table class={more ? `list ${more}` : 'list'}>
      <caption class={quietCaption ? 'sr-only' : undefined}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((c, i) => {
            const column = typeof c === 'string' ? { label: c } : c;
            return (
              <th key={i} scope="col" class={column.num ? 'num' : undefined}>
                {column.hidden ? <span class="sr-only">{column.label}</span> : column.label}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {children}
        {empty && (
          <tr>
            <td colSpan={columns.length}>{empty}</td>
          </tr>
        )}
      </tbody>
      {foot && <tfoot>{foot}</tfoot>}
    </table>
  );
}
