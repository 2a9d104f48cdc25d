import { type Node, NodeInput } from '@streamcloud/contract';
import Button from 'react-bootstrap/Button';
import { useForm } from 'react-hook-form';
import { LocationNote } from '@/components/location/location-note';
import { CheckField, TextField } from '@/components/ui/form-fields';
import { TitledCard } from '@/components/ui/titled-card';
import { type BoundField, contractResolver, fieldsOf, namedFields, showServerFieldErrors } from '@/lib/forms';
import { NODE_FIELD_GROUPS, NODE_SWITCHES, type NodeTextFieldSpec } from '../utils/node-form-fields';
import { NEW_NODE_VALUES, type NodeFormValues, toDraft, toFormValues } from '../utils/node-form-values';
import { useNodeLocation } from '../utils/use-node-location';

const fieldOfPath = namedFields<NodeFormValues>([
  'name',
  ...NODE_FIELD_GROUPS.flatMap((group) => group.fields.map((field) => field.name)),
  ...NODE_SWITCHES.map((flag) => flag.name),
]);

/** The contract's NodeInput validates what the inputs hold, once turned into a request body. */
const resolver = contractResolver(NodeInput, { toBody: toDraft, fieldOfPath });

/** One text input in its grid column, with its suggestions if it has any. */
function NodeTextField({ spec, bound }: { spec: NodeTextFieldSpec; bound: BoundField<NodeTextFieldSpec['name']> }) {
  return (
    <div className={spec.column}>
      <TextField id={spec.id} label={spec.label} list={spec.suggestions?.id} {...spec.input} {...bound} />
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
  const form = useForm<NodeFormValues>({ resolver, defaultValues: node ? toFormValues(node) : NEW_NODE_VALUES });
  const { register, handleSubmit, reset, setError, setValue, getValues, control } = form;
  const field = fieldsOf(form);

  const location = useNodeLocation(control, setValue, getValues);

  const onSubmit = handleSubmit(async (values) => {
    try {
      // What the contract makes of the inputs (names trimmed, blanks as null), as the form has just checked.
      await onSave(NodeInput.parse(toDraft(values)));
      reset(undefined, { keepValues: true });
    } catch (error) {
      showServerFieldErrors(error, setError, fieldOfPath);
      console.error('Saving the node failed', error);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Node">
      <TitledCard title="Node">
        <TextField id="node-name" label="Name" autoComplete="off" {...field('name')} />
        {NODE_SWITCHES.map((flag, index) => (
          <CheckField
            key={flag.name}
            id={flag.id}
            kind="switch"
            label={flag.label}
            help={flag.help}
            className={index < NODE_SWITCHES.length - 1 ? 'mb-2' : 'mb-0'}
            {...register(flag.name)}
          />
        ))}
      </TitledCard>

      {NODE_FIELD_GROUPS.map((group) => (
        <TitledCard key={group.title} title={group.title}>
          {group.title === 'Location' && <LocationNote lookup={location} testId="node-location-lookup" />}
          <div className="row">
            {group.fields.map((spec) => (
              <NodeTextField key={spec.name} spec={spec} bound={field(spec.name)} />
            ))}
          </div>
        </TitledCard>
      ))}

      <div className="mb-4">
        <Button type="submit" disabled={form.formState.isSubmitting}>
          Save
        </Button>
      </div>
    </form>
  );
}
