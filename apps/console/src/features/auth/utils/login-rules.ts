import { LoginRequest } from '@streamcloud/contract';
import { contractResolver } from '@/lib/forms';

/** The contract's rules for the login body (login-form.tsx loads them with the first check). */
export const loginRules = contractResolver(LoginRequest);
