import {
  AliasNode,
  DeleteQueryNode,
  InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type QueryId,
  SelectQueryNode,
  TableNode,
  UpdateQueryNode,
} from 'kysely';

/**
 * The statements a watcher counts: updates and deletes of the tables always, inserts when asked; 'every':
 * every statement but a plain select (inserts, updates, deletes, raw SQL, whose effect cannot be told).
 */
export interface WatchedWrites {
  tables: ReadonlySet<string> | 'every';
  inserts?: boolean;
  /** With 'every': a statement that writes only these tables (and reads none through a select) is not counted. */
  except?: ReadonlySet<string>;
}

/**
 * A plugin for this process's own queries: `onWrite` runs as soon as a statement that writes one of the
 * watched tables returns (what this process keeps from those tables is then stale), whichever code wrote it.
 */
export function tableWritesPlugin(watched: WatchedWrites, onWrite: () => void): KyselyPlugin {
  const writes = new WeakSet<QueryId>();
  return {
    transformQuery: ({ node, queryId }) => {
      if (watches(watched, node)) writes.add(queryId);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      if (writes.has(queryId)) onWrite();
      return result;
    },
  };
}

function watches({ tables, inserts = false, except }: WatchedWrites, node: OperationNode): boolean {
  if (tables === 'every') {
    return (!SelectQueryNode.is(node) || node.with !== undefined) && !(except && writesOnly(node, except));
  }
  return writtenTables(node, inserts).some((name) => tables.has(name));
}

/** The names of the tables a statement inserts into (when counted), updates or deletes from. */
function writtenTables(node: OperationNode, inserts: boolean): string[] {
  const tables = UpdateQueryNode.is(node)
    ? [node.table]
    : DeleteQueryNode.is(node)
      ? node.from.froms
      : inserts && InsertQueryNode.is(node)
        ? [node.into]
        : [];
  return tables.flatMap((table) => {
    const named = table && AliasNode.is(table) ? table.node : table;
    return named !== undefined && TableNode.is(named) ? [named.table.identifier.name] : [];
  });
}

/**
 * Whether a statement is an insert, update or delete of `tables` only, its CTEs too (the viewer beacon's
 * one-statement write): anything else, raw SQL among it, may write anywhere.
 */
function writesOnly(node: OperationNode, tables: ReadonlySet<string>): boolean {
  if (!InsertQueryNode.is(node) && !UpdateQueryNode.is(node) && !DeleteQueryNode.is(node)) return false;
  const written = writtenTables(node, true);
  if (written.length === 0 || !written.every((name) => tables.has(name))) return false;
  return (node.with?.expressions ?? []).every((cte) => writesOnly(cte.expression, tables));
}
