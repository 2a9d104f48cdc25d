import { createHash, createSign } from 'node:crypto';
import type { OracleConfig } from './config.js';
import type { CloudProviderOptions, LaunchedInstance, LaunchSpec, ScalingProvider } from './provider.js';
import { callProvider, jsonErrorMessage, launchedNode, notConfigured, ProviderError } from './provider.js';
import { nodeBootScript } from './user-data.js';

const OCI_API_VERSION = '20160918';

export interface OciKey {
  tenancyOcid: string;
  userOcid: string;
  fingerprint: string;
  privateKey: string;
}

/**
 * OCI request signing (HTTP Signatures, rsa-sha256): the headers to send. POST and PUT also sign
 * content-length, content-type and x-content-sha256. `x-date` is used for the date (fetch may not set Date).
 */
export function signOci(
  request: { method: string; url: string; body?: string; contentType?: string },
  key: OciKey,
  now: Date,
): Record<string, string> {
  const url = new URL(request.url);
  const method = request.method.toLowerCase();
  const headers: Record<string, string> = { 'x-date': now.toUTCString(), host: url.host };
  const signed = ['x-date', '(request-target)', 'host'];
  if (method === 'post' || method === 'put') {
    const body = request.body ?? '';
    headers['content-length'] = String(Buffer.byteLength(body, 'utf8'));
    headers['content-type'] = request.contentType ?? 'application/json';
    headers['x-content-sha256'] = createHash('sha256').update(body, 'utf8').digest('base64');
    signed.push('content-length', 'content-type', 'x-content-sha256');
  }
  const target = `${method} ${url.pathname}${url.search}`;
  const signingString = signed
    .map((name) => `${name}: ${name === '(request-target)' ? target : headers[name]}`)
    .join('\n');
  const signature = createSign('RSA-SHA256').update(signingString, 'utf8').sign(key.privateKey, 'base64');
  headers.authorization =
    `Signature version="1",keyId="${key.tenancyOcid}/${key.userOcid}/${key.fingerprint}",` +
    `algorithm="rsa-sha256",headers="${signed.join(' ')}",signature="${signature}"`;
  return headers;
}

/** OCI's error body: `{code, message}`. */
const ociError = jsonErrorMessage('code');

/** Oracle Cloud Infrastructure compute: LaunchInstance and TerminateInstance (Core Services API 20160918). */
export class OracleProvider implements ScalingProvider {
  readonly name = 'Oracle' as const;

  constructor(
    private readonly config: OracleConfig,
    private readonly options: CloudProviderOptions,
  ) {}

  private key(): { key: OciKey; endpoint: string; region: string } {
    const { tenancyOcid, userOcid, fingerprint, privateKey, region } = this.config;
    if (!tenancyOcid || !userOcid || !fingerprint || !privateKey || !region) {
      throw notConfigured(
        'Oracle credentials are not configured (set OCI_TENANCY_OCID, OCI_USER_OCID, OCI_FINGERPRINT, ' +
          'OCI_PRIVATE_KEY or OCI_PRIVATE_KEY_FILE, and OCI_REGION)',
      );
    }
    return {
      key: { tenancyOcid, userOcid, fingerprint, privateKey },
      region,
      endpoint: (this.config.endpoint ?? `https://iaas.${region}.oraclecloud.com`).replace(/\/$/, ''),
    };
  }

  private async call(method: string, url: string, key: OciKey, body?: string, extra: Record<string, string> = {}) {
    let headers: Record<string, string>;
    try {
      headers = signOci({ method, url, ...(body !== undefined ? { body } : {}) }, key, this.options.now());
    } catch (error) {
      throw notConfigured(
        `Oracle private key cannot sign requests (check OCI_PRIVATE_KEY): ${(error as Error).message}`,
      );
    }
    const { host: _host, ...sent } = headers;
    return callProvider('Oracle', this.options.fetch, url, { method, headers: { ...sent, ...extra }, body }, ociError);
  }

  async launch(spec: LaunchSpec): Promise<LaunchedInstance> {
    const { key, endpoint, region } = this.key();
    const { compartmentOcid, availabilityDomain, subnetOcid, imageOcid } = this.config;
    if (!compartmentOcid || !availabilityDomain || !subnetOcid || !imageOcid) {
      throw notConfigured(
        'Oracle instance settings are not configured (set OCI_COMPARTMENT_OCID, OCI_AVAILABILITY_DOMAIN, ' +
          'OCI_SUBNET_OCID and OCI_IMAGE_OCID)',
      );
    }
    const shape = spec.value ?? this.config.shape;
    const body = JSON.stringify({
      availabilityDomain,
      compartmentId: compartmentOcid,
      displayName: spec.name,
      shape,
      ...(shape.endsWith('.Flex')
        ? { shapeConfig: { ocpus: this.config.shapeOcpus, memoryInGBs: this.config.shapeMemoryGb } }
        : {}),
      sourceDetails: { sourceType: 'image', imageId: imageOcid },
      createVnicDetails: { subnetId: subnetOcid, assignPublicIp: true, hostnameLabel: spec.name.slice(0, 63) },
      metadata: {
        user_data: Buffer.from(
          nodeBootScript(spec, this.options.controlPlaneUrl, this.options.nodeStartCommand),
          'utf8',
        ).toString('base64'),
      },
      freeformTags: { 'streamcloud-node-id': spec.nodeId, 'streamcloud-node-group-id': spec.group.id },
    });
    const { text } = await this.call('POST', `${endpoint}/${OCI_API_VERSION}/instances`, key, body, {
      'opc-retry-token': spec.nodeId,
    });
    let instance: { id?: string; displayName?: string } | undefined;
    try {
      instance = JSON.parse(text) as typeof instance;
    } catch {
      instance = undefined;
    }
    if (!instance?.id) throw new ProviderError('Oracle answered LaunchInstance without an instance id');
    // LaunchInstance answers before the VNIC has addresses; the node's name is its VNIC hostname label.
    return launchedNode(this.name, region, instance.id, instance.displayName ?? spec.name);
  }

  async terminate(externalId: string): Promise<void> {
    const { key, endpoint } = this.key();
    await this.call(
      'DELETE',
      `${endpoint}/${OCI_API_VERSION}/instances/${encodeURIComponent(externalId)}?preserveBootVolume=false`,
      key,
    );
  }
}
