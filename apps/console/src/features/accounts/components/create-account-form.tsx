import { isApiError } from '@streamcloud/api-client';
import { AccountCreate, type AccountCreateInput, accountRoutes } from '@streamcloud/contract';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { FormFailure } from '@/components/ui/form-failure';
import { SelectField, TextField } from '@/components/ui/form-fields';
import { accountKeys } from '@/data/accounts/keys';
import { useRouteMutation } from '@/data/route-mutation';
import { contractResolver, namedFields, useSubmitForm } from '@/lib/forms';

const fieldOfPath = namedFields<AccountCreateInput>(['username', 'password', 'role', 'email']);

const EMPTY: AccountCreateInput = { username: '', password: '', role: 'USER', email: '' };

export function CreateAccountForm() {
  const createAccount = useRouteMutation(accountRoutes.create, {
    toRequest: (body: AccountCreate) => ({ body }),
    invalidates: () => [accountKeys.lists()],
  });
  const { form, field, onSubmit, failure } = useSubmitForm(
    { resolver: contractResolver(AccountCreate), defaultValues: EMPTY },
    {
      save: async (values) => {
        await createAccount.mutateAsync(values);
        form.reset(EMPTY);
      },
      failureOf: (error) => ({ detail: isApiError(error) ? error.serverMessage : undefined }),
      fieldOfPath,
    },
  );

  return (
    <Card className="mb-4">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          New account
        </Card.Title>
        <form noValidate onSubmit={onSubmit} aria-label="New account">
          <FormFailure className="py-2">{failure && 'Invalid!'}</FormFailure>
          {failure?.detail && <p className="small text-danger">{failure.detail}</p>}
          <div className="row g-3">
            <div className="col-md-3">
              <TextField id="account-username" label="Username" autoComplete="off" {...field('username')} />
            </div>
            <div className="col-md-3">
              <TextField
                id="account-password"
                label="Password"
                type="password"
                autoComplete="new-password"
                {...field('password')}
              />
            </div>
            <div className="col-md-2">
              <SelectField id="account-role" label="Role" {...field('role')}>
                <option value="USER">USER</option>
                <option value="ADMIN">ADMIN</option>
              </SelectField>
            </div>
            <div className="col-md-4">
              <TextField
                id="account-email"
                label="Email (optional)"
                type="email"
                autoComplete="off"
                {...field('email')}
              />
            </div>
          </div>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            Create account
          </Button>
        </form>
      </Card.Body>
    </Card>
  );
}
