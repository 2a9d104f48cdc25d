import { errorStatus, messageOr } from '@streamcloud/api-client';
import { type Node, type NodeInput, nodeRoutes } from '@streamcloud/contract';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { PageShell } from '@/components/ui/page-shell';
import { nodeKeys } from '@/data/nodes/keys';
import { deletesResource, savesResource } from '@/data/resource-writes';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { NodeDrainCard } from './node-drain-card';
import { NodeForm } from './node-form';
import { NodeHealthCard } from './node-health-card';
import { NodeTokenCard } from './node-token-card';
import { NodeTools } from './node-tools';

export const DELETE_FAILED = 'Something wrong with node deleting';
export const REISSUE_FAILED = 'Something wrong with node token re-issue';

/** Carries a new node's token from the create screen to its view screen, once. */
interface CreatedState {
  token?: string;
}

const BackLink = () => (
  <Link className="btn btn-outline-secondary" to="/nodes">
    Back to nodes
  </Link>
);

function CreateNode() {
  const createNode = useRouteMutation(nodeRoutes.create, {
    toRequest: (body: NodeInput) => ({ body }),
    invalidates: () => [nodeKeys.lists()],
  });
  const notify = useNotify();
  const navigate = useNavigate();

  const save = async (input: NodeInput) => {
    const created = await createNode.mutateAsync(input);
    notify('OK', 'success');
    navigate(`/nodes/view/${created.id}`, { replace: true, state: { token: created.token } satisfies CreatedState });
  };

  return (
    <PageShell title="New node" actions={<BackLink />}>
      <NodeForm onSave={save} />
    </PageShell>
  );
}

function ViewNode({ node }: { node: Node }) {
  const updateNode = useRouteMutation(nodeRoutes.update, {
    toRequest: (body: NodeInput) => ({ params: { id: node.id }, body }),
    ...savesResource(nodeKeys),
  });
  const deleteNode = useRouteMutation(nodeRoutes.delete, {
    toRequest: (id: string) => ({ params: { id } }),
    ...deletesResource(nodeKeys),
  });
  // A new node token; the old one stops working at once.
  const reissue = useRouteMutation(nodeRoutes.reissueToken, { toRequest: () => ({ params: { id: node.id } }) });
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const [token, setToken] = useState<string | null>(() => (location.state as CreatedState | null)?.token ?? null);
  const [confirm, setConfirm] = useState<'delete' | 'reissue' | null>(null);

  // The token is kept in memory only: reloading or going back does not show it again.
  useEffect(() => {
    if ((location.state as CreatedState | null)?.token) navigate(location.pathname, { replace: true, state: null });
  }, [location, navigate]);

  const save = async (input: NodeInput) => {
    await updateNode.mutateAsync(input);
    notify('OK', 'success');
  };

  const remove = async () => {
    setConfirm(null);
    try {
      await deleteNode.mutateAsync(node.id);
      navigate('/nodes');
    } catch (error) {
      notify(messageOr(error, DELETE_FAILED));
    }
  };

  const reissueToken = async () => {
    setConfirm(null);
    try {
      setToken((await reissue.mutateAsync()).token);
    } catch (error) {
      notify(messageOr(error, REISSUE_FAILED));
    }
  };

  return (
    <PageShell
      title={node.name}
      actions={
        <div className="d-flex flex-wrap gap-2">
          <BackLink />
          <Button variant="outline-warning" disabled={reissue.isPending} onClick={() => setConfirm('reissue')}>
            Re-issue token
          </Button>
          <Button variant="outline-danger" disabled={deleteNode.isPending} onClick={() => setConfirm('delete')}>
            Delete
          </Button>
        </div>
      }
    >
      {token && <NodeTokenCard token={token} onDone={() => setToken(null)} />}
      <NodeForm key={node.id} node={node} onSave={save} />
      <NodeHealthCard node={node} />
      <NodeTools node={node} />
      <NodeDrainCard node={node} />
      <ConfirmDialog
        show={confirm === 'delete'}
        title="Delete node"
        message={`Delete node ${node.name}? It also leaves every node group it is in.`}
        onConfirm={() => void remove()}
        onCancel={() => setConfirm(null)}
      />
      <ConfirmDialog
        show={confirm === 'reissue'}
        title="Re-issue token"
        message={`Issue a new token for node ${node.name}? Its current token stops working at once.`}
        onConfirm={() => void reissueToken()}
        onCancel={() => setConfirm(null)}
      />
    </PageShell>
  );
}

function LoadNode({ id }: { id: string }) {
  const node = useRouteQuery(nodeRoutes.get, nodeKeys.detail(id), { params: { id } });
  if (node.isPending) {
    return (
      <PageShell title="Node">
        <Loading />
      </PageShell>
    );
  }
  if (node.isError) {
    return (
      <PageShell title="Node" actions={<BackLink />}>
        <p className="text-danger">
          {errorStatus(node.error) === 404 ? 'This node does not exist.' : 'The node could not be loaded.'}
        </p>
      </PageShell>
    );
  }
  return <ViewNode node={node.data} />;
}

/** /nodes/create and /nodes/view/{id}; any other mode goes back to the list. */
export function NodeScreen() {
  const { mode, id } = useParams();
  if (mode === 'create' && !id) return <CreateNode />;
  if (mode === 'view' && id) return <LoadNode key={id} id={id} />;
  return <Navigate to="/nodes" replace />;
}
