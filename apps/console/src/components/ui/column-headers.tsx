/**
 * A column: its visible heading, or `{ hidden }` for one that screen readers name but the eye does not
 * need (a column of buttons), or `false` for a column this table leaves out (`showTarget && 'Sent to'`).
 */
export type Column = string | { hidden: string } | false;

/** A table's header row: every heading a `col` header, so each cell is announced with its column. */
export function ColumnHeaders({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          column === false ? null : typeof column === 'string' ? (
            <th key={column} scope="col">
              {column}
            </th>
          ) : (
            <th key={column.hidden} scope="col">
              <span className="visually-hidden">{column.hidden}</span>
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
