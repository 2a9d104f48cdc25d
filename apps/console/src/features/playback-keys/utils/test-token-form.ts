import type { PlaybackTokenInspect } from '@streamcloud/contract';
import { namedFields } from '@/lib/forms';

/** The test page's inputs: blank optional ones are left out of the request. */
export interface TestTokenForm {
  token: string;
  outputId: string;
  address: string;
  country: string;
  origin: string;
}

export const EMPTY_TEST_TOKEN: TestTokenForm = { token: '', outputId: '', address: '', country: '', origin: '' };

const present = (value: string) => (value.trim() === '' ? undefined : value.trim());

export function toInspectBody(values: TestTokenForm): PlaybackTokenInspect {
  const body: PlaybackTokenInspect = { token: values.token, outputId: values.outputId.trim() };
  const address = present(values.address);
  const country = present(values.country);
  const origin = present(values.origin);
  if (address !== undefined) body.address = address;
  if (country !== undefined) body.country = country;
  if (origin !== undefined) body.origin = origin;
  return body;
}

export const testTokenFieldOfPath = namedFields<TestTokenForm>(['token', 'outputId', 'address', 'country', 'origin']);
