import { AccessTokenRotate, type RotatedAccessToken } from '@streamcloud/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { CreateOnceDialog } from '@/components/credentials/create-once-dialog';
import { CopyField } from '@/components/ui/copy-field';
import { TextField } from '@/components/ui/form-fields';
import { formatDateTime } from '@/lib/format';
import { contractResolver } from '@/lib/forms';
import {
  EMPTY_TOKEN_ROTATION,
  lastRotatedText,
  rotationFieldOfPath,
  TOKEN_ROTATION_TEXTS,
  type TokenRotationForm,
  toRotationBody,
} from '../utils/token-rotation';

export interface TokenRotationProps {
  /** What the token is, as the dialog names it: 'access token' (ingest) or 'playback token' (an output's). */
  what: string;
  /** Prefix of the dialog's ids (unique on the page). */
  id: string;
  rotatedAt: string | null;
  rotate: (body: AccessTokenRotate) => Promise<RotatedAccessToken>;
}

/**
 * When a token was last rotated, and its 'Rotate token' button: a dialog asks how long the old token stays
 * valid, then shows the new one once with Copy (the card keeps showing the current token, as before).
 */
export function TokenRotation({ what, id, rotatedAt, rotate }: TokenRotationProps) {
  const [open, setOpen] = useState(false);
  return (
    <div className="d-flex align-items-center gap-2 mt-1 small">
      <span className="text-secondary">{lastRotatedText(rotatedAt, formatDateTime)}</span>
      <Button size="sm" variant="outline-secondary" onClick={() => setOpen(true)}>
        Rotate token
      </Button>
      <CreateOnceDialog
        show={open}
        onClose={() => setOpen(false)}
        id={`${id}-rotate`}
        title={`Rotate ${what}`}
        createdTitle={`New ${what}`}
        submitLabel="Rotate"
        resolver={contractResolver(AccessTokenRotate, { toBody: toRotationBody, fieldOfPath: rotationFieldOfPath })}
        empty={EMPTY_TOKEN_ROTATION}
        fieldOfPath={rotationFieldOfPath}
        create={(values: TokenRotationForm) => rotate(toRotationBody(values))}
        failedText={TOKEN_ROTATION_TEXTS.failed}
        fields={(field) => (
          <TextField
            id={`${id}-overlap`}
            label="Overlap (minutes)"
            inputMode="decimal"
            autoComplete="off"
            help={TOKEN_ROTATION_TEXTS.help}
            {...field('overlapMinutes')}
          />
        )}
        shown={(rotated: RotatedAccessToken) => (
          <>
            <p className="text-danger">{TOKEN_ROTATION_TEXTS.shownOnce}</p>
            <CopyField id={`${id}-new-token`} label={`New ${what}`} value={rotated.accessToken} />
            <p className="mt-3 mb-0">
              {rotated.previousValidUntil
                ? `The old token is still taken until ${formatDateTime(rotated.previousValidUntil)}.`
                : TOKEN_ROTATION_TEXTS.stoppedNow}{' '}
              {TOKEN_ROTATION_TEXTS.running}
            </p>
          </>
        )}
      />
    </div>
  );
}
