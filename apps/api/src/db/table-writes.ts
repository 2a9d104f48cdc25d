import {
  AliasNode,
  DeleteQueryNode,
  InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type QueryId,
  TableNode,
  UpdateQueryNode,
} from 'kysely';

/** The statements a watcher counts: updates and deletes always, inserts when asked. */
export interface WatchedWrites {
  tables: ReadonlySet<string>;
  inserts?: boolean;
}

/**
 * A plugin for this process's own queries: `onWrite` runs as soon as a statement that writes one of the
 * watched tables returns (what this process keeps from those tables is then stale), whichever code wrote it.
 */
export function tableWritesPlugin(watched: WatchedWrites, onWrite: () => void): KyselyPlugin {
  const writes = new WeakSet<QueryId>();
  return {
    transformQuery: ({ node, queryId }) => {
      if (writtenTables(node, watched.inserts ?? false).some((name) => watched.tables.has(name))) writes.add(queryId);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      if (writes.has(queryId)) onWrite();
      return result;
    },
  };
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
