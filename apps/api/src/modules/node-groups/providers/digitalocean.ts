import type { DigitalOceanConfig } from './config.js';
import type { CloudProviderOptions, LaunchedInstance, LaunchSpec, ScalingProvider } from './provider.js';
import { callProvider, jsonErrorMessage, launchedNode, notConfigured, ProviderError } from './provider.js';
import { nodeBootScript } from './user-data.js';

interface DropletNetwork {
  ip_address: string;
  type: 'public' | 'private';
}

/** DigitalOcean's error body: `{id, message}`. */
const doError = jsonErrorMessage('id');

/** DigitalOcean droplets: `POST /v2/droplets` (one per node, its own user_data) and `DELETE /v2/droplets/{id}`. */
export class DigitalOceanProvider implements ScalingProvider {
  readonly name = 'DigitalOcean' as const;

  constructor(
    private readonly config: DigitalOceanConfig,
    private readonly options: Omit<CloudProviderOptions, 'now'>,
  ) {}

  private token(): string {
    if (!this.config.token) throw notConfigured('DigitalOcean credentials are not configured (set DIGITALOCEAN_TOKEN)');
    return this.config.token;
  }

  private headers(token: string) {
    return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  }

  async launch(spec: LaunchSpec): Promise<LaunchedInstance> {
    const token = this.token();
    const { region, image } = this.config;
    if (!region || !image) {
      throw notConfigured(
        'DigitalOcean droplet settings are not configured (set DIGITALOCEAN_REGION and DIGITALOCEAN_IMAGE)',
      );
    }
    const body = {
      name: spec.name,
      region,
      size: spec.value ?? this.config.size,
      image,
      user_data: nodeBootScript(spec, this.options.controlPlaneUrl, this.options.nodeStartCommand),
      tags: ['streamcloud', `streamcloud-node:${spec.nodeId}`, `streamcloud-group:${spec.group.id}`],
      monitoring: true,
      ...(this.config.sshKeys.length > 0 ? { ssh_keys: this.config.sshKeys } : {}),
      ...(this.config.vpcUuid ? { vpc_uuid: this.config.vpcUuid } : {}),
    };
    const { text } = await callProvider(
      'DigitalOcean',
      this.options.fetch,
      `${this.config.endpoint.replace(/\/$/, '')}/v2/droplets`,
      { method: 'POST', headers: this.headers(token), body: JSON.stringify(body) },
      doError,
    );
    let droplet: { id?: number | string; name?: string; networks?: { v4?: DropletNetwork[] } } | undefined;
    try {
      droplet = (JSON.parse(text) as { droplet?: typeof droplet }).droplet;
    } catch {
      droplet = undefined;
    }
    if (droplet?.id === undefined) throw new ProviderError('DigitalOcean answered without a droplet id');
    const v4 = droplet.networks?.v4 ?? [];
    const publicIp = v4.find((network) => network.type === 'public')?.ip_address ?? null;
    const privateIp = v4.find((network) => network.type === 'private')?.ip_address ?? null;
    const hostname = publicIp ?? privateIp ?? droplet.name ?? spec.name;
    return launchedNode(this.name, region, String(droplet.id), hostname, {
      publicIPv4: publicIp,
      privateIPv4: privateIp,
    });
  }

  async terminate(externalId: string): Promise<void> {
    const token = this.token();
    await callProvider(
      'DigitalOcean',
      this.options.fetch,
      `${this.config.endpoint.replace(/\/$/, '')}/v2/droplets/${encodeURIComponent(externalId)}`,
      { method: 'DELETE', headers: { authorization: `Bearer ${token}` } },
      doError,
    );
  }
}
