import { STORAGE_CHECK_LABELS, type StorageCheckResult } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';

/** The result of a connection check, each check with ok or failed and what the server said. */
export function ConnectionCheck({ result }: { result: StorageCheckResult }) {
  return (
    <Card className="mb-3" border={result.ok ? 'success' : 'danger'}>
      <Card.Body>
        <section aria-labelledby="connection-check-title" aria-live="polite">
          <h2 id="connection-check-title" className="h5">
            Connection check: {result.ok ? 'OK' : 'failed'}
          </h2>
          <ul className="list-unstyled mb-0">
            {result.checks.map((check) => (
              <li key={check.name} className="d-flex gap-2 align-items-baseline mb-1">
                <Badge bg={check.ok ? 'success' : 'danger'}>{check.ok ? 'OK' : 'Failed'}</Badge>
                <span>
                  <strong>{STORAGE_CHECK_LABELS[check.name]}:</strong> {check.message}
                </span>
              </li>
            ))}
          </ul>
        </section>
      </Card.Body>
    </Card>
  );
}
