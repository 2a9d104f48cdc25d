import { createHash, createHmac } from 'node:crypto';
import type { AwsConfig } from './config.js';
import type { CloudProviderOptions, LaunchedInstance, LaunchSpec, ScalingProvider } from './provider.js';
import { callProvider, launchedNode, notConfigured, ProviderError, summarize } from './provider.js';
import { nodeBootScript } from './user-data.js';

const EC2_API_VERSION = '2016-11-15';
const FORM = 'application/x-www-form-urlencoded; charset=utf-8';

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding, as AWS canonical requests want it. */
const awsEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export interface SigV4Request {
  method: string;
  url: string;
  /** Headers to sign and send; host and x-amz-date are added. */
  headers: Record<string, string>;
  body: string;
}

export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** AWS Signature Version 4: answers the headers to send (with Authorization). */
export function signV4(
  request: SigV4Request,
  credentials: SigV4Credentials,
  region: string,
  service: string,
  now: Date,
): Record<string, string> {
  const url = new URL(request.url);
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const date = amzDate.slice(0, 8);
  const headers: Record<string, string> = { ...request.headers, host: url.host, 'x-amz-date': amzDate };
  if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;
  const lower = Object.entries(headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonicalHeaders = lower.map(([name, value]) => `${name}:${value}\n`).join('');
  const signedHeaders = lower.map(([name]) => name).join(';');
  const canonicalQuery = [...url.searchParams.entries()]
    .map(([name, value]) => [awsEncode(name), awsEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalRequest = [
    request.method,
    url.pathname || '/',
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    sha256Hex(request.body),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date), region), service),
    'aws4_request',
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

const tag = (xml: string, name: string): string | null => {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
  return match?.[1] ?? null;
};

/** EC2's error body: `<Response><Errors><Error><Code>…</Code><Message>…</Message>`. */
const ec2Error = (xml: string) => {
  const code = tag(xml, 'Code');
  const message = tag(xml, 'Message');
  return code || message ? [code, message].filter(Boolean).join(': ') : summarize(xml);
};

/**
 * Amazon EC2: RunInstances (one instance per node, so each boots with its own token; the node id is
 * the idempotency ClientToken) and TerminateInstances, over the EC2 Query API signed with SigV4.
 */
export class AwsProvider implements ScalingProvider {
  readonly name = 'AWS' as const;

  constructor(
    private readonly config: AwsConfig,
    private readonly options: CloudProviderOptions,
  ) {}

  private settings() {
    const { accessKeyId, secretAccessKey, region } = this.config;
    if (!accessKeyId || !secretAccessKey || !region) {
      throw notConfigured(
        'AWS credentials are not configured (set AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION)',
      );
    }
    return {
      credentials: { accessKeyId, secretAccessKey, sessionToken: this.config.sessionToken },
      region,
      endpoint: this.config.endpoint ?? `https://ec2.${region}.amazonaws.com/`,
    };
  }

  private async call(params: Record<string, string>): Promise<string> {
    const { credentials, region, endpoint } = this.settings();
    const body = new URLSearchParams({ ...params, Version: EC2_API_VERSION }).toString();
    const headers = signV4(
      { method: 'POST', url: endpoint, headers: { 'content-type': FORM }, body },
      credentials,
      region,
      'ec2',
      this.options.now(),
    );
    const { host: _host, ...sent } = headers;
    const { text } = await callProvider(
      'AWS',
      this.options.fetch,
      endpoint,
      { method: 'POST', headers: sent, body },
      ec2Error,
    );
    return text;
  }

  async launch(spec: LaunchSpec): Promise<LaunchedInstance> {
    const { region } = this.settings();
    if (!this.config.imageId) throw notConfigured('AWS image is not configured (set AWS_SCALING_IMAGE_ID)');
    const params: Record<string, string> = {
      Action: 'RunInstances',
      ImageId: this.config.imageId,
      InstanceType: spec.value ?? this.config.instanceType,
      MinCount: '1',
      MaxCount: '1',
      ClientToken: spec.nodeId,
      UserData: Buffer.from(
        nodeBootScript(spec, this.options.controlPlaneUrl, this.options.nodeStartCommand),
        'utf8',
      ).toString('base64'),
      'TagSpecification.1.ResourceType': 'instance',
      'TagSpecification.1.Tag.1.Key': 'Name',
      'TagSpecification.1.Tag.1.Value': spec.name,
      'TagSpecification.1.Tag.2.Key': 'streamcloud:node-id',
      'TagSpecification.1.Tag.2.Value': spec.nodeId,
      'TagSpecification.1.Tag.3.Key': 'streamcloud:node-group-id',
      'TagSpecification.1.Tag.3.Value': spec.group.id,
    };
    if (this.config.subnetId) params.SubnetId = this.config.subnetId;
    this.config.securityGroupIds.forEach((id, index) => {
      params[`SecurityGroupId.${index + 1}`] = id;
    });
    if (this.config.keyName) params.KeyName = this.config.keyName;
    const xml = await this.call(params);
    const instanceId = tag(xml, 'instanceId');
    if (!instanceId) throw new ProviderError('AWS answered RunInstances without an instance id');
    const privateIp = tag(xml, 'privateIpAddress');
    const publicIp = tag(xml, 'ipAddress');
    const hostname = publicIp ?? privateIp ?? tag(xml, 'privateDnsName') ?? instanceId;
    return launchedNode(this.name, region, instanceId, hostname, { publicIPv4: publicIp, privateIPv4: privateIp });
  }

  async terminate(externalId: string): Promise<void> {
    await this.call({ Action: 'TerminateInstances', 'InstanceId.1': externalId });
  }
}
