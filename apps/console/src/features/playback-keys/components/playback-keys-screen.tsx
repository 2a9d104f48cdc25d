import { PageShell } from '@/components/ui/page-shell';
import { PlaybackKeysCard } from './playback-keys-card';
import { RevokeTokenCard } from './revoke-token-card';
import { TestTokenCard } from './test-token-card';

/** The account's playback signing keys (issue 34) and the token test. */
export function PlaybackKeysScreen() {
  return (
    <PageShell title="Playback signing keys">
      <PlaybackKeysCard />
      <TestTokenCard />
      <RevokeTokenCard />
    </PageShell>
  );
}
