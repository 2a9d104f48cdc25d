import { type AccessTokenRotate, TOKEN_OVERLAP_DEFAULT_MINUTES } from '@streamcloud/contract';
import { namedFields } from '@/lib/forms';

/** Token rotation (issue 34): the dialog's texts. */
export const TOKEN_ROTATION_TEXTS = {
  never: 'Never rotated',
  help: 'How long the old token is still taken beside the new one, so publishers and players can move over (0 to 1440).',
  shownOnce: 'Copy the new token now: this dialog shows it only this once.',
  stoppedNow: 'The old token stopped working now.',
  /** Publishers and viewers already connected with the old token go on; new ones need a valid token. */
  running: 'Pushes and viewers already connected with the old token are not cut.',
  failed: 'The token could not be rotated.',
} as const;

export const lastRotatedText = (rotatedAt: string | null, format: (value: string) => string) =>
  rotatedAt ? `Last rotated ${format(rotatedAt)}` : TOKEN_ROTATION_TEXTS.never;

/** The rotation form: the overlap as typed. */
export interface TokenRotationForm {
  overlapMinutes: string;
}

export const EMPTY_TOKEN_ROTATION: TokenRotationForm = { overlapMinutes: String(TOKEN_OVERLAP_DEFAULT_MINUTES) };

/** The body the form stands for: a blank or non-numeric overlap is sent as NaN, which the contract names. */
export const toRotationBody = (values: TokenRotationForm): AccessTokenRotate => ({
  overlapMinutes: values.overlapMinutes.trim() === '' ? Number.NaN : Number(values.overlapMinutes),
});

export const rotationFieldOfPath = namedFields<TokenRotationForm>(['overlapMinutes']);
