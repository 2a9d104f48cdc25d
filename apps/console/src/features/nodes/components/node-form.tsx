import { zodResolver } from '@hookform/resolvers/zod';
import { type Node, NodeInput, REGION_ORDER } from '@streamcloud/contract';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { type FieldPath, type Resolver, type UseFormSetError, useForm } from 'react-hook-form';
import { TextField } from '@/components/ui/form-fields';
import { isApiError } from '@/lib/api-error';
import { NEW_NODE_VALUES, type NodeFormValues, toDraft, toFormValues } from './node-form-values';

const FIELDS: readonly FieldPath<NodeFormValues>[] = [
  'name',
  'connection.protocol',
  'connection.hostname',
  'connection.port',
  'settings.bandwidthLimitMbps',
  'settings.publicIPv4',
  'settings.privateIPv4',
  'location.code',
  'location.description',
  'location.geo.latitude',
  'location.geo.longitude',
  'opened',
  'enabled',
];

const nodeInputResolver = zodResolver(NodeInput);

/** The contract's NodeInput validates what the inputs hold, once turned into a request body. */
const resolver: Resolver<NodeFormValues, unknown, NodeInput> = (values, context, options) =>
  nodeInputResolver(toDraft(values), context, options as never) as unknown as ReturnType<
    Resolver<NodeFormValues, unknown, NodeInput>
  >;

/** Puts the server's per-field messages (`body.connection.port`) under the matching inputs. */
function showFieldErrors(error: unknown, setError: UseFormSetError<NodeFormValues>) {
  if (!isApiError(error)) return;
  for (const item of error.errors ?? []) {
    const field = FIELDS.find((name) => `body.${name}` === item.path);
    if (field) setError(field, { message: item.message });
  }
}

export interface NodeFormProps {
  /** The node being viewed; absent when creating one. */
  node?: Node;
  /** Saves; a rejection leaves the form as it is. */
  onSave: (input: NodeInput) => Promise<void>;
}

/** The section 3 fields of a node, validated with the contract's rules. */
export function NodeForm({ node, onSave }: NodeFormProps) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NodeFormValues, unknown, NodeInput>({
    resolver,
    defaultValues: node ? toFormValues(node) : NEW_NODE_VALUES,
  });

  const onSubmit = handleSubmit(async (input) => {
    try {
      await onSave(input);
      reset(undefined, { keepValues: true });
    } catch (error) {
      showFieldErrors(error, setError);
      console.error('Saving the node failed', error);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Node">
      <Card className="mb-3">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            Node
          </Card.Title>
          <TextField
            id="node-name"
            label="Name"
            autoComplete="off"
            error={errors.name?.message}
            {...register('name')}
          />
          <div className="form-check form-switch mb-2">
            <input className="form-check-input" type="checkbox" id="node-opened" {...register('opened')} />
            <label className="form-check-label" htmlFor="node-opened">
              Opened
            </label>
            <div className="form-text mt-0">Available for new connections.</div>
          </div>
          <div className="form-check form-switch">
            <input className="form-check-input" type="checkbox" id="node-enabled" {...register('enabled')} />
            <label className="form-check-label" htmlFor="node-enabled">
              Enabled
            </label>
            <div className="form-text mt-0">Available for use.</div>
          </div>
        </Card.Body>
      </Card>

      <Card className="mb-3">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            Connection
          </Card.Title>
          <div className="row">
            <div className="col-md-3">
              <TextField
                id="node-protocol"
                label="Protocol"
                list="node-protocols"
                autoComplete="off"
                error={errors.connection?.protocol?.message}
                {...register('connection.protocol')}
              />
              <datalist id="node-protocols">
                <option value="HTTP" />
                <option value="HTTPS" />
              </datalist>
            </div>
            <div className="col-md-6">
              <TextField
                id="node-hostname"
                label="Hostname"
                autoComplete="off"
                error={errors.connection?.hostname?.message}
                {...register('connection.hostname')}
              />
            </div>
            <div className="col-md-3">
              <TextField
                id="node-port"
                label="Port"
                type="number"
                min={0}
                max={65535}
                step={1}
                error={errors.connection?.port?.message}
                {...register('connection.port')}
              />
            </div>
          </div>
        </Card.Body>
      </Card>

      <Card className="mb-3">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            Settings
          </Card.Title>
          <div className="row">
            <div className="col-md-4">
              <TextField
                id="node-bandwidth"
                label="Bandwidth limit (Mbps)"
                type="number"
                min={0}
                step="any"
                error={errors.settings?.bandwidthLimitMbps?.message}
                {...register('settings.bandwidthLimitMbps')}
              />
            </div>
            <div className="col-md-4">
              <TextField
                id="node-public-ipv4"
                label="Public IPv4"
                autoComplete="off"
                error={errors.settings?.publicIPv4?.message}
                {...register('settings.publicIPv4')}
              />
            </div>
            <div className="col-md-4">
              <TextField
                id="node-private-ipv4"
                label="Private IPv4"
                autoComplete="off"
                error={errors.settings?.privateIPv4?.message}
                {...register('settings.privateIPv4')}
              />
            </div>
          </div>
        </Card.Body>
      </Card>

      <Card className="mb-3">
        <Card.Body>
          <Card.Title as="h2" className="h5">
            Location
          </Card.Title>
          <div className="row">
            <div className="col-md-3">
              <TextField
                id="node-location-code"
                label="Location code"
                list="node-region-codes"
                autoComplete="off"
                error={errors.location?.code?.message}
                {...register('location.code')}
              />
              <datalist id="node-region-codes">
                {REGION_ORDER.map((code) => (
                  <option key={code} value={code} />
                ))}
              </datalist>
            </div>
            <div className="col-md-9">
              <TextField
                id="node-location-description"
                label="Location description"
                autoComplete="off"
                error={errors.location?.description?.message}
                {...register('location.description')}
              />
            </div>
            <div className="col-md-6">
              <TextField
                id="node-latitude"
                label="Latitude"
                type="number"
                step="any"
                min={-90}
                max={90}
                error={errors.location?.geo?.latitude?.message}
                {...register('location.geo.latitude')}
              />
            </div>
            <div className="col-md-6">
              <TextField
                id="node-longitude"
                label="Longitude"
                type="number"
                step="any"
                min={-180}
                max={180}
                error={errors.location?.geo?.longitude?.message}
                {...register('location.geo.longitude')}
              />
            </div>
          </div>
        </Card.Body>
      </Card>

      <div className="mb-4">
        <Button type="submit" disabled={isSubmitting}>
          Save
        </Button>
      </div>
    </form>
  );
}
