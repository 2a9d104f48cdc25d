import { zodResolver } from '@hookform/resolvers/zod';
import { isApiError } from '@streamcloud/api-client';
import { type Node, NodeInput } from '@streamcloud/contract';
import Button from 'react-bootstrap/Button';
import {
  type FieldError,
  type FieldErrors,
  type FieldPath,
  get,
  type Resolver,
  type UseFormRegister,
  type UseFormSetError,
  useForm,
} from 'react-hook-form';
import { TextField } from '@/components/ui/form-fields';
import { TitledCard } from '@/components/ui/titled-card';
import { NODE_FIELD_GROUPS, NODE_SWITCHES, type NodeTextFieldSpec } from './node-form-fields';
import { NEW_NODE_VALUES, type NodeFormValues, toDraft, toFormValues } from './node-form-values';

const FIELDS: readonly FieldPath<NodeFormValues>[] = [
  'name',
  ...NODE_FIELD_GROUPS.flatMap((group) => group.fields.map((field) => field.name)),
  ...NODE_SWITCHES.map((flag) => flag.name),
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

interface NodeTextFieldProps {
  spec: NodeTextFieldSpec;
  register: UseFormRegister<NodeFormValues>;
  errors: FieldErrors<NodeFormValues>;
}

/** One text input in its grid column, with its suggestions if it has any. */
function NodeTextField({ spec, register, errors }: NodeTextFieldProps) {
  return (
    <div className={spec.column}>
      <TextField
        id={spec.id}
        label={spec.label}
        list={spec.suggestions?.id}
        {...spec.input}
        error={(get(errors, spec.name) as FieldError | undefined)?.message}
        {...register(spec.name)}
      />
      {spec.suggestions && (
        <datalist id={spec.suggestions.id}>
          {spec.suggestions.values.map((value) => (
            <option key={value} value={value} />
          ))}
        </datalist>
      )}
    </div>
  );
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
      <TitledCard title="Node">
        <TextField id="node-name" label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
        {NODE_SWITCHES.map((flag, index) => (
          <div
            key={flag.name}
            className={index < NODE_SWITCHES.length - 1 ? 'form-check form-switch mb-2' : 'form-check form-switch'}
          >
            <input className="form-check-input" type="checkbox" id={flag.id} {...register(flag.name)} />
            <label className="form-check-label" htmlFor={flag.id}>
              {flag.label}
            </label>
            <div className="form-text mt-0">{flag.help}</div>
          </div>
        ))}
      </TitledCard>

      {NODE_FIELD_GROUPS.map((group) => (
        <TitledCard key={group.title} title={group.title}>
          <div className="row">
            {group.fields.map((spec) => (
              <NodeTextField key={spec.name} spec={spec} register={register} errors={errors} />
            ))}
          </div>
        </TitledCard>
      ))}

      <div className="mb-4">
        <Button type="submit" disabled={isSubmitting}>
          Save
        </Button>
      </div>
    </form>
  );
}
