import type { ScalingProviderName } from '@streamcloud/contract';
import type { GuardedFetch } from '@streamcloud/net-guard';

/** The backend that runs a node: one of the clouds, or `local` (processes on this machine). */
export type ProviderBackend = ScalingProviderName | 'local';

/** One node to start: the control plane registers it first, so the instance boots with its token. */
export interface LaunchSpec {
  nodeId: string;
  /** The node's name, also used as the instance's name (letters, digits, dashes). */
  name: string;
  /** The node token the started node reports with. */
  token: string;
  group: { id: string; name: string };
  /** The rule's provider-specific value: AWS instance type, DigitalOcean size slug, Oracle shape. */
  value: string | null;
  bandwidthLimitMbps: number;
}

/** What the provider knows of a started instance. */
export interface LaunchedInstance {
  /** The instance id at the provider (EC2 instance id, droplet id, OCI instance OCID, local-<pid>). */
  externalId: string;
  /** The best address known at launch: public IP, else private IP, else a DNS name or the instance name. */
  hostname: string;
  protocol: string;
  port: number;
  publicIPv4: string | null;
  privateIPv4: string | null;
  /** Shown as the node's location description, e.g. "AWS eu-west-1". */
  locationDescription: string | null;
}

/**
 * The media node a provider started: reached over HTTP on the node's control port, where the boot script
 * (user-data.ts) starts it; located as `<provider> <region>`.
 */
export function launchedNode(
  provider: string,
  region: string,
  externalId: string,
  hostname: string,
  addresses: Pick<LaunchedInstance, 'publicIPv4' | 'privateIPv4'> = { publicIPv4: null, privateIPv4: null },
): LaunchedInstance {
  return {
    externalId,
    hostname,
    protocol: 'HTTP',
    port: 4242,
    ...addresses,
    locationDescription: `${provider} ${region}`,
  };
}

/** Starts and stops nodes somewhere. Every method fails with a ProviderError, never anything else. */
export interface ScalingProvider {
  readonly name: ProviderBackend;
  launch(spec: LaunchSpec): Promise<LaunchedInstance>;
  terminate(externalId: string): Promise<void>;
  /** Stops what the provider holds on this machine (the local provider's processes). */
  close?(): Promise<void>;
}

/** A provider call that failed: `notConfigured` when credentials or settings are missing. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly notConfigured = false,
  ) {
    super(message);
  }
}

export const notConfigured = (message: string) => new ProviderError(message, true);

/** The providers of this control plane, by the name a rule gives and by the backend that ran a node. */
export interface ScalingProviders {
  /** The provider that serves a rule's provider name (the local provider when all are local). */
  forRule(name: ScalingProviderName): ScalingProvider;
  /** The provider that runs an allocated node, by the backend name stored with it. */
  byBackend(name: string): ScalingProvider | null;
  close(): Promise<void>;
}

/** A fetch that answers with a short timeout; injected so tests can see the requests. */
/** The guarded fetch of lib/outbound.ts (tests give fakes). */
export type Fetch = GuardedFetch;

/** What a cloud provider is made with besides its configuration. */
export interface CloudProviderOptions {
  fetch: Fetch;
  /** The clock requests are signed with. */
  now: () => Date;
  /** Where the started nodes reach the control plane (in their boot script). */
  controlPlaneUrl: string | null;
  nodeStartCommand: string;
}

export const PROVIDER_TIMEOUT_MS = 15_000;

/** Runs a provider HTTP call and turns every failure into a ProviderError naming the provider. */
export async function callProvider(
  provider: string,
  fetchFn: Fetch,
  url: string,
  init: RequestInit,
  describeError: (body: string) => string = summarize,
): Promise<{ status: number; text: string }> {
  let response: Response;
  try {
    response = await fetchFn(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    throw new ProviderError(`${provider} did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    throw new ProviderError(`${provider} answered ${response.status}: ${describeError(text)}`);
  }
  return { status: response.status, text };
}

export const summarize = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat || 'no details';
};

/** Reads a JSON error body `{<codeField>, message}` as `code: message`; anything else is summarized. */
export const jsonErrorMessage =
  (codeField: string) =>
  (text: string): string => {
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      const code = body[codeField];
      if (body.message) return code ? `${code}: ${body.message}` : String(body.message);
    } catch {
      // not JSON
    }
    return summarize(text);
  };

/** A registry over a fixed set of providers. */
export function providerRegistry(providers: ScalingProvider[], options: { allLocal?: boolean } = {}): ScalingProviders {
  const byName = new Map<string, ScalingProvider>(providers.map((provider) => [provider.name, provider]));
  return {
    forRule(name) {
      const provider = byName.get(options.allLocal ? 'local' : name);
      if (!provider) throw notConfigured(`No ${options.allLocal ? 'local' : name} scaling provider is configured`);
      return provider;
    },
    byBackend: (name) => byName.get(name) ?? null,
    async close() {
      await Promise.all(providers.map((provider) => provider.close?.()));
    },
  };
}
