import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { type Column, ColumnHeaders } from '@/components/ui/column-headers';
import { Loading } from '@/components/ui/loading';
import { TitledCard } from '@/components/ui/titled-card';
import { type RevokeMutation, type RevokeTexts, useConfirmedRevoke } from './use-confirmed-revoke';

export interface CredentialsCardProps<Key extends { id: string; name: string }> {
  title: string;
  /** What the credentials are for, above the Create button. */
  intro: ReactNode;
  createLabel: string;
  /** The table's name (read by screen readers). */
  caption: string;
  texts: RevokeTexts & { loadingFailed: string; none: string };
  /** The account's credentials, as the list read answers them. */
  keys: UseQueryResult<Key[]>;
  revoke: RevokeMutation;
  columns: readonly Column[];
  /** A credential's cells, its Revoke button among them where it may be revoked. */
  cells: (key: Key, revokeButton: (key: Key) => ReactNode) => ReactNode;
  /** The dialog that creates one and shows its secret once. */
  createDialog: (props: { show: boolean; onClose: () => void }) => ReactNode;
}

/** An account's credentials (API keys, playback signing keys): create (shown once), list, revoke after a confirm. */
export function CredentialsCard<Key extends { id: string; name: string }>(props: CredentialsCardProps<Key>) {
  const { keys, texts } = props;
  const { revokeButton, confirmDialog } = useConfirmedRevoke<Key>(props.revoke, texts);
  const [creating, setCreating] = useState(false);

  return (
    <TitledCard title={props.title}>
      {props.intro}
      <Button className="mb-3" onClick={() => setCreating(true)}>
        {props.createLabel}
      </Button>
      {keys.isPending ? (
        <Loading />
      ) : keys.isError ? (
        <p className="text-danger mb-0">{texts.loadingFailed}</p>
      ) : keys.data.length === 0 ? (
        <p className="mb-0">{texts.none}</p>
      ) : (
        <Table responsive hover className="align-middle mb-0">
          <caption className="visually-hidden">{props.caption}</caption>
          <ColumnHeaders columns={props.columns} />
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id}>{props.cells(key, revokeButton)}</tr>
            ))}
          </tbody>
        </Table>
      )}
      {props.createDialog({ show: creating, onClose: () => setCreating(false) })}
      {confirmDialog}
    </TitledCard>
  );
}
