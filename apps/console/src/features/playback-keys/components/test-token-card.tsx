import { messageOr } from '@streamcloud/api-client';
import { PlaybackTokenInspect, type PlaybackTokenInspection, playbackKeyRoutes } from '@streamcloud/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { FormFailure } from '@/components/ui/form-failure';
import { TextField } from '@/components/ui/form-fields';
import { HeadedSection } from '@/components/ui/headed-section';
import { TitledCard } from '@/components/ui/titled-card';
import { useRouteMutation } from '@/data/route-mutation';
import { contractResolver, useSubmitForm } from '@/lib/forms';
import { PLAYBACK_KEY_TEXTS } from '../utils/messages';
import { EMPTY_TEST_TOKEN, type TestTokenForm, testTokenFieldOfPath, toInspectBody } from '../utils/test-token-form';

/** The test viewer's optional inputs, side by side. */
const VIEWER_FIELDS = [
  { name: 'address', id: 'test-token-address', label: 'Viewer address', help: undefined },
  { name: 'country', id: 'test-token-country', label: 'Viewer country', help: 'Two letters, e.g. FR' },
  { name: 'origin', id: 'test-token-origin', label: 'Page origin', help: 'e.g. https://shop.example' },
] as const;

/** The verdict and what the token says, as written. */
function Inspection({ result }: { result: PlaybackTokenInspection }) {
  return (
    <>
      <div role="alert" className={`alert ${result.accepted ? 'alert-success' : 'alert-danger'}`}>
        <strong>{result.accepted ? 'Accepted' : 'Refused'}</strong>: {result.message}
        {result.reason && (
          <>
            {' '}
            (<code>{result.reason}</code>)
          </>
        )}
        {result.detail && <div className="small">{result.detail}</div>}
        {result.sessionEndsAt && <div className="small">The session would end at {result.sessionEndsAt}.</div>}
      </div>
      {/* Only a Signed output reads playback tokens: a Public one plays anyone, a Private one its static token. */}
      <p className="small text-secondary" data-testid="inspected-output-access">
        Output access: {result.output.access}
      </p>
      {result.claims && (
        <HeadedSection id="token-claims-title" title="Claims">
          <pre className="bg-body-tertiary p-2 small">
            {JSON.stringify({ header: result.header, claims: result.claims }, null, 2)}
          </pre>
        </HeadedSection>
      )}
    </>
  );
}

/** Paste a token: its claims, and whether an output would accept it from a test viewer, and why. */
export function TestTokenCard() {
  // Asks whether an output would accept a token (changes nothing).
  const inspect = useRouteMutation(playbackKeyRoutes.inspect, {
    toRequest: (body: PlaybackTokenInspect) => ({ body }),
  });
  const [result, setResult] = useState<PlaybackTokenInspection | null>(null);
  const { field, onSubmit, failure, form } = useSubmitForm<TestTokenForm>(
    {
      resolver: contractResolver(PlaybackTokenInspect, { toBody: toInspectBody, fieldOfPath: testTokenFieldOfPath }),
      defaultValues: EMPTY_TEST_TOKEN,
    },
    {
      save: async (values) => {
        setResult(null);
        setResult(await inspect.mutateAsync(toInspectBody(values)));
      },
      failureOf: (error) => messageOr(error, PLAYBACK_KEY_TEXTS.testFailed),
      fieldOfPath: testTokenFieldOfPath,
    },
  );

  return (
    <TitledCard title="Test a token">
      <p className="text-secondary small">
        The same check the media nodes make. The viewer fields are optional: leave them blank to test without them.
      </p>
      <form noValidate onSubmit={onSubmit} aria-label="Test a token">
        <FormFailure className="py-2">{failure}</FormFailure>
        <TextField id="test-token" label="Token" autoComplete="off" spellCheck={false} {...field('token')} />
        <TextField
          id="test-token-output"
          label="Output ID"
          autoComplete="off"
          help="The output the player would open (its id, on the stream's page)."
          {...field('outputId')}
        />
        <div className="row row-cols-md-3">
          {VIEWER_FIELDS.map((viewer) => (
            <TextField
              key={viewer.name}
              id={viewer.id}
              label={viewer.label}
              autoComplete="off"
              help={viewer.help}
              {...field(viewer.name)}
            />
          ))}
        </div>
        <Button type="submit" className="mb-3" disabled={form.formState.isSubmitting}>
          Test token
        </Button>
      </form>
      {result && <Inspection result={result} />}
    </TitledCard>
  );
}
