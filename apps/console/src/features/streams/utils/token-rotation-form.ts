import { type AccessTokenRotate, TOKEN_OVERLAP_DEFAULT_MINUTES } from '@streamcloud/contract';
import { namedFields } from '@/lib/forms';

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
