import { DEFAULT_OUTBOUND } from '../../../lib/outbound.js';
import { AwsProvider } from './aws.js';
import type { ScalingConfig } from './config.js';
import { DigitalOceanProvider } from './digitalocean.js';
import { LocalProvider } from './local.js';
import { OracleProvider } from './oracle.js';
import { type Fetch, providerRegistry, type ScalingProviders } from './provider.js';

/** The providers the configuration describes: the three clouds and the local one. */
export function createScalingProviders(
  config: ScalingConfig,
  options: { fetch?: Fetch; now?: () => Date } = {},
): ScalingProviders {
  const fetchFn = options.fetch ?? DEFAULT_OUTBOUND.operator.fetch;
  const now = options.now ?? (() => new Date());
  const common = { controlPlaneUrl: config.controlPlaneUrl, nodeStartCommand: config.nodeStartCommand };
  return providerRegistry(
    [
      new AwsProvider(config.aws, { ...common, fetch: fetchFn, now }),
      new DigitalOceanProvider(config.digitalOcean, { ...common, fetch: fetchFn }),
      new OracleProvider(config.oracle, { ...common, fetch: fetchFn, now }),
      new LocalProvider(config.local, { controlPlaneUrl: config.controlPlaneUrl }),
    ],
    { allLocal: config.backend === 'local' },
  );
}
