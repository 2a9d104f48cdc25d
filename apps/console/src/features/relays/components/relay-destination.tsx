import type { Relay } from '@streamcloud/contract';
import { MASKED_KEY } from '../utils/messages';

/** Where a relay sends the stream, in one line; the RTMP key only ever masked. */
export function RelayDestination({ relay }: { relay: Relay }) {
  switch (relay.format) {
    case 'RTMP':
      return (
        <span className="text-break">
          <code>{relay.output.server}</code>
          <span className="ms-2">Stream key: {relay.output.keySet ? MASKED_KEY : 'none'}</span>
        </span>
      );
    case 'CMAF':
      return (
        <span className="text-break">
          <code>{relay.output.endpoint}</code>
          {relay.output.unifiedStreamingPlatform && <span className="ms-2">Unified Streaming Platform</span>}
        </span>
      );
    case 'UDPTS':
      return (
        <code>
          udp://{relay.output.ipAddress}:{relay.output.port}
        </code>
      );
  }
}
