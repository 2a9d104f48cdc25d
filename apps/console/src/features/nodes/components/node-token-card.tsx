import Button from 'react-bootstrap/Button';
import { CopyField } from '@/components/ui/copy-field';
import { TitledCard } from '@/components/ui/titled-card';

/** A node token, shown this once, with a copy button. */
export function NodeTokenCard({ token, onDone }: { token: string; onDone: () => void }) {
  return (
    <TitledCard border="warning" title="Node token">
      <p>
        Copy this token now: it is shown only once. The node sends it as{' '}
        <code>Authorization: Bearer &lt;token&gt;</code> to the node-facing API.
      </p>
      <CopyField id="node-token" label="Node token" value={token} />
      <Button variant="secondary" size="sm" onClick={onDone}>
        Done
      </Button>
    </TitledCard>
  );
}
