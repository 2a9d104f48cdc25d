import type { ScalingProviderName } from '@streamcloud/contract';
import {
  type LaunchedInstance,
  type LaunchSpec,
  type ProviderError,
  providerRegistry,
  type ScalingProvider,
  type ScalingProviders,
} from './provider.js';

/** A provider that starts nothing and remembers every call (tests, dry runs). */
export class RecordingProvider implements ScalingProvider {
  readonly launches: LaunchSpec[] = [];
  readonly terminated: string[] = [];
  /** When set, every call fails with it. */
  failWith: ProviderError | null = null;

  constructor(readonly name: ScalingProviderName) {}

  async launch(spec: LaunchSpec): Promise<LaunchedInstance> {
    if (this.failWith) throw this.failWith;
    this.launches.push(spec);
    const externalId = `${this.name.toLowerCase()}-${this.launches.length}`;
    return {
      externalId,
      hostname: `${externalId}.test`,
      protocol: 'HTTP',
      port: 4242,
      publicIPv4: null,
      privateIPv4: null,
      locationDescription: `${this.name} test`,
    };
  }

  async terminate(externalId: string): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.terminated.push(externalId);
  }
}

/** Recording providers for the three cloud names. */
export function recordingProviders(): {
  registry: ScalingProviders;
  providers: Record<ScalingProviderName, RecordingProvider>;
} {
  const providers = {
    AWS: new RecordingProvider('AWS'),
    DigitalOcean: new RecordingProvider('DigitalOcean'),
    Oracle: new RecordingProvider('Oracle'),
  };
  return { registry: providerRegistry(Object.values(providers)), providers };
}
