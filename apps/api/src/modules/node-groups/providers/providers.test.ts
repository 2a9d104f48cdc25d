import { createHash, createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../config.js';
import { NodeControlClient } from '../../nodes/node-control.client.js';
import { hashNodeToken } from '../../nodes/node-token.js';
import { AwsProvider, signV4 } from './aws.js';
import { loadScalingConfig } from './config.js';
import { DigitalOceanProvider } from './digitalocean.js';
import { createScalingProviders } from './index.js';
import { LocalProvider } from './local.js';
import { OracleProvider, signOci } from './oracle.js';
import { type LaunchSpec, ProviderError } from './provider.js';
import { nodeBootScript } from './user-data.js';

const NOW = new Date('2030-01-02T03:04:05.000Z');

interface Captured {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** A fetch at the edge: records the request and answers what the test says. */
function fakeFetch(answer: (request: Captured) => Response) {
  const requests: Captured[] = [];
  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    const request: Captured = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(Object.entries((init?.headers as Record<string, string>) ?? {})),
      body: typeof init?.body === 'string' ? init.body : '',
    };
    requests.push(request);
    return answer(request);
  };
  return { fetch: fetchFn as typeof fetch, requests };
}

const spec = (overrides: Partial<LaunchSpec> = {}): LaunchSpec => ({
  nodeId: '7d0c6b8e-3f7a-4d55-9a55-6f1f3c1b2a10',
  name: 'edge-eu-aws-7d0c6b8e',
  token: 'scn_secret-token',
  group: { id: '0b5e2d7c-1111-4222-8333-444455556666', name: 'Edge EU' },
  value: null,
  bandwidthLimitMbps: 2500,
  ...overrides,
});

const config = (env: Record<string, string> = {}) => loadScalingConfig(env);

describe('AWS Signature Version 4', () => {
  it('matches the AWS documentation example (IAM ListUsers)', () => {
    const headers = signV4(
      {
        method: 'GET',
        url: 'https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: '',
      },
      { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
      'us-east-1',
      'iam',
      new Date('2015-08-30T12:36:00Z'),
    );
    expect(headers['x-amz-date']).toBe('20150830T123600Z');
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, ' +
        'SignedHeaders=content-type;host;x-amz-date, ' +
        'Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
    );
  });
});

describe('AWS provider (EC2)', () => {
  const awsEnv = {
    AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'secret',
    AWS_REGION: 'eu-west-1',
    AWS_SCALING_IMAGE_ID: 'ami-0123456789abcdef0',
    AWS_SCALING_SUBNET_ID: 'subnet-1',
    AWS_SCALING_SECURITY_GROUP_IDS: 'sg-1, sg-2',
    SCALING_CONTROL_PLANE_URL: 'https://cp.example.com',
  };
  const make = (env: Record<string, string>, fetchFn: typeof fetch) => {
    const c = config(env);
    return new AwsProvider(c.aws, {
      fetch: fetchFn,
      now: () => NOW,
      controlPlaneUrl: c.controlPlaneUrl,
      nodeStartCommand: c.nodeStartCommand,
    });
  };

  it('RunInstances: one signed Query API call per node, with its own boot script', async () => {
    const { fetch: fetchFn, requests } = fakeFetch(
      () =>
        new Response(
          '<RunInstancesResponse><instancesSet><item><instanceId>i-0abc</instanceId>' +
            '<privateDnsName>ip-10-0-0-5.ec2.internal</privateDnsName><privateIpAddress>10.0.0.5</privateIpAddress>' +
            '</item></instancesSet></RunInstancesResponse>',
          { status: 200 },
        ),
    );
    const instance = await make(awsEnv, fetchFn).launch(spec({ value: 'c7i.xlarge' }));
    expect(instance).toEqual({
      externalId: 'i-0abc',
      hostname: '10.0.0.5',
      protocol: 'HTTP',
      port: 4242,
      publicIPv4: null,
      privateIPv4: '10.0.0.5',
      locationDescription: 'AWS eu-west-1',
    });
    const [request] = requests;
    expect(request?.url).toBe('https://ec2.eu-west-1.amazonaws.com/');
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=utf-8');
    expect(request?.headers['x-amz-date']).toBe('20300102T030405Z');
    expect(request?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20300102\/eu-west-1\/ec2\/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    // the signature is the one of exactly this request
    const resigned = signV4(
      {
        method: 'POST',
        url: request!.url,
        headers: { 'content-type': request!.headers['content-type']! },
        body: request!.body,
      },
      { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      'eu-west-1',
      'ec2',
      NOW,
    );
    expect(request?.headers.authorization).toBe(resigned.authorization);
    const params = new URLSearchParams(request?.body);
    expect(Object.fromEntries(params)).toMatchObject({
      Action: 'RunInstances',
      Version: '2016-11-15',
      ImageId: 'ami-0123456789abcdef0',
      InstanceType: 'c7i.xlarge',
      MinCount: '1',
      MaxCount: '1',
      ClientToken: spec().nodeId,
      SubnetId: 'subnet-1',
      'SecurityGroupId.1': 'sg-1',
      'SecurityGroupId.2': 'sg-2',
      'TagSpecification.1.ResourceType': 'instance',
      'TagSpecification.1.Tag.1.Key': 'Name',
      'TagSpecification.1.Tag.1.Value': 'edge-eu-aws-7d0c6b8e',
    });
    const userData = Buffer.from(params.get('UserData') ?? '', 'base64').toString('utf8');
    expect(userData).toContain("STREAMCLOUD_NODE_TOKEN='scn_secret-token'");
    expect(userData).toContain("STREAMCLOUD_CONTROL_PLANE_URL='https://cp.example.com'");
  });

  it('uses the configured instance type when the rule has no value', async () => {
    const { fetch: fetchFn, requests } = fakeFetch(
      () => new Response('<x><instanceId>i-1</instanceId></x>', { status: 200 }),
    );
    const instance = await make(awsEnv, fetchFn).launch(spec());
    expect(new URLSearchParams(requests[0]?.body).get('InstanceType')).toBe('c6i.large');
    expect(instance.hostname).toBe('i-1');
  });

  it('TerminateInstances', async () => {
    const { fetch: fetchFn, requests } = fakeFetch(
      () => new Response('<TerminateInstancesResponse/>', { status: 200 }),
    );
    await make(awsEnv, fetchFn).terminate('i-0abc');
    expect(Object.fromEntries(new URLSearchParams(requests[0]?.body))).toEqual({
      Action: 'TerminateInstances',
      'InstanceId.1': 'i-0abc',
      Version: '2016-11-15',
    });
  });

  it('names the variables to set when credentials or the image are missing, without calling', async () => {
    const { fetch: fetchFn, requests } = fakeFetch(() => new Response('', { status: 200 }));
    const missing = make({ AWS_ACCESS_KEY_ID: 'x', AWS_REGION: 'eu-west-1' }, fetchFn);
    await expect(missing.launch(spec())).rejects.toMatchObject({
      message: 'AWS credentials are not configured (set AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION)',
      notConfigured: true,
    });
    await expect(missing.terminate('i-1')).rejects.toBeInstanceOf(ProviderError);
    const { AWS_SCALING_IMAGE_ID: _, ...noImage } = awsEnv;
    await expect(make(noImage, fetchFn).launch(spec())).rejects.toMatchObject({
      message: 'AWS image is not configured (set AWS_SCALING_IMAGE_ID)',
    });
    expect(requests).toEqual([]);
  });

  it("turns EC2's error body and network failures into ProviderErrors", async () => {
    const failing = fakeFetch(
      () =>
        new Response(
          '<Response><Errors><Error><Code>InvalidAMIID.NotFound</Code><Message>The image id does not exist</Message></Error></Errors></Response>',
          { status: 400 },
        ),
    );
    await expect(make(awsEnv, failing.fetch).launch(spec())).rejects.toThrow(
      'AWS answered 400: InvalidAMIID.NotFound: The image id does not exist',
    );
    const offline = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    await expect(make(awsEnv, offline).launch(spec())).rejects.toThrow('AWS did not answer: fetch failed');
  });
});

describe('DigitalOcean provider (droplets)', () => {
  const doEnv = {
    DIGITALOCEAN_TOKEN: 'dop_v1_token',
    DIGITALOCEAN_REGION: 'fra1',
    DIGITALOCEAN_IMAGE: 'ubuntu-24-04-x64',
    DIGITALOCEAN_SSH_KEYS: '12345',
  };
  const make = (env: Record<string, string>, fetchFn: typeof fetch) => {
    const c = config(env);
    return new DigitalOceanProvider(c.digitalOcean, {
      fetch: fetchFn,
      controlPlaneUrl: c.controlPlaneUrl,
      nodeStartCommand: c.nodeStartCommand,
    });
  };

  it('POST /v2/droplets with a bearer token and the droplet body', async () => {
    const { fetch: fetchFn, requests } = fakeFetch(() =>
      Response.json(
        {
          droplet: {
            id: 3164444,
            name: 'edge-eu-aws-7d0c6b8e',
            networks: {
              v4: [
                { ip_address: '10.110.0.2', type: 'private' },
                { ip_address: '203.0.113.7', type: 'public' },
              ],
            },
          },
        },
        { status: 202 },
      ),
    );
    const instance = await make(doEnv, fetchFn).launch(spec({ value: 's-4vcpu-8gb' }));
    expect(instance).toMatchObject({
      externalId: '3164444',
      hostname: '203.0.113.7',
      publicIPv4: '203.0.113.7',
      privateIPv4: '10.110.0.2',
      locationDescription: 'DigitalOcean fra1',
    });
    const [request] = requests;
    expect(request).toMatchObject({ url: 'https://api.digitalocean.com/v2/droplets', method: 'POST' });
    expect(request?.headers).toMatchObject({
      authorization: 'Bearer dop_v1_token',
      'content-type': 'application/json',
    });
    const body = JSON.parse(request?.body ?? '{}');
    expect(body).toMatchObject({
      name: 'edge-eu-aws-7d0c6b8e',
      region: 'fra1',
      size: 's-4vcpu-8gb',
      image: 'ubuntu-24-04-x64',
      ssh_keys: ['12345'],
      tags: ['streamcloud', `streamcloud-node:${spec().nodeId}`, `streamcloud-group:${spec().group.id}`],
    });
    expect(body.user_data).toContain("STREAMCLOUD_NODE_TOKEN='scn_secret-token'");
  });

  it('a droplet without addresses yet is known by its name; DELETE stops it', async () => {
    const { fetch: fetchFn, requests } = fakeFetch((request) =>
      request.method === 'DELETE'
        ? new Response(null, { status: 204 })
        : Response.json({ droplet: { id: 1, name: 'edge-x', networks: { v4: [] } } }, { status: 202 }),
    );
    const provider = make(doEnv, fetchFn);
    expect((await provider.launch(spec())).hostname).toBe('edge-x');
    expect(JSON.parse(requests[0]?.body ?? '{}').size).toBe('s-2vcpu-4gb');
    await provider.terminate('1');
    expect(requests[1]).toMatchObject({ url: 'https://api.digitalocean.com/v2/droplets/1', method: 'DELETE' });
  });

  it('names what to set, and reports the API message', async () => {
    const { fetch: fetchFn } = fakeFetch(() =>
      Response.json({ id: 'unprocessable_entity', message: 'Size is not available in this region.' }, { status: 422 }),
    );
    await expect(make({}, fetchFn).launch(spec())).rejects.toThrow(
      'DigitalOcean credentials are not configured (set DIGITALOCEAN_TOKEN)',
    );
    await expect(make({ DIGITALOCEAN_TOKEN: 'x' }, fetchFn).launch(spec())).rejects.toThrow(
      'DigitalOcean droplet settings are not configured (set DIGITALOCEAN_REGION and DIGITALOCEAN_IMAGE)',
    );
    await expect(make(doEnv, fetchFn).launch(spec())).rejects.toThrow(
      'DigitalOcean answered 422: unprocessable_entity: Size is not available in this region.',
    );
  });
});

describe('Oracle provider (OCI compute)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const ociEnv = {
    OCI_TENANCY_OCID: 'ocid1.tenancy.oc1..t',
    OCI_USER_OCID: 'ocid1.user.oc1..u',
    OCI_FINGERPRINT: '20:3b:97:13:55:1c',
    OCI_PRIVATE_KEY: pem.replaceAll('\n', '\\n'),
    OCI_REGION: 'eu-frankfurt-1',
    OCI_COMPARTMENT_OCID: 'ocid1.compartment.oc1..c',
    OCI_AVAILABILITY_DOMAIN: 'Uocm:EU-FRANKFURT-1-AD-1',
    OCI_SUBNET_OCID: 'ocid1.subnet.oc1..s',
    OCI_IMAGE_OCID: 'ocid1.image.oc1..i',
  };
  const make = (env: Record<string, string>, fetchFn: typeof fetch) => {
    const c = config(env);
    return new OracleProvider(c.oracle, {
      fetch: fetchFn,
      now: () => NOW,
      controlPlaneUrl: c.controlPlaneUrl,
      nodeStartCommand: c.nodeStartCommand,
    });
  };
  const verify = (request: Captured, signed: string[]) => {
    const authorization = request.headers.authorization ?? '';
    expect(authorization).toContain('keyId="ocid1.tenancy.oc1..t/ocid1.user.oc1..u/20:3b:97:13:55:1c"');
    expect(authorization).toContain('algorithm="rsa-sha256"');
    expect(authorization).toContain(`headers="${signed.join(' ')}"`);
    const signature = /signature="([^"]+)"/.exec(authorization)?.[1] ?? '';
    const url = new URL(request.url);
    const signingString = signed
      .map((name) =>
        name === '(request-target)'
          ? `(request-target): ${request.method.toLowerCase()} ${url.pathname}${url.search}`
          : name === 'host'
            ? `host: ${url.host}`
            : `${name}: ${request.headers[name]}`,
      )
      .join('\n');
    expect(createVerify('RSA-SHA256').update(signingString).verify(publicKey, signature, 'base64')).toBe(true);
  };

  it('LaunchInstance: a signed POST with the instance body', async () => {
    const { fetch: fetchFn, requests } = fakeFetch(() =>
      Response.json({
        id: 'ocid1.instance.oc1..x',
        displayName: 'edge-eu-aws-7d0c6b8e',
        lifecycleState: 'PROVISIONING',
      }),
    );
    const instance = await make(ociEnv, fetchFn).launch(spec());
    expect(instance).toMatchObject({
      externalId: 'ocid1.instance.oc1..x',
      hostname: 'edge-eu-aws-7d0c6b8e',
      locationDescription: 'Oracle eu-frankfurt-1',
    });
    const [request] = requests;
    expect(request).toMatchObject({
      url: 'https://iaas.eu-frankfurt-1.oraclecloud.com/20160918/instances',
      method: 'POST',
    });
    expect(request?.headers['opc-retry-token']).toBe(spec().nodeId);
    expect(request?.headers['x-date']).toBe(NOW.toUTCString());
    expect(request?.headers['x-content-sha256']).toBe(
      createHash('sha256')
        .update(request?.body ?? '')
        .digest('base64'),
    );
    expect(request?.headers['content-length']).toBe(String(Buffer.byteLength(request?.body ?? '')));
    verify(request!, ['x-date', '(request-target)', 'host', 'content-length', 'content-type', 'x-content-sha256']);
    const body = JSON.parse(request?.body ?? '{}');
    expect(body).toMatchObject({
      availabilityDomain: 'Uocm:EU-FRANKFURT-1-AD-1',
      compartmentId: 'ocid1.compartment.oc1..c',
      displayName: 'edge-eu-aws-7d0c6b8e',
      shape: 'VM.Standard.E4.Flex',
      shapeConfig: { ocpus: 2, memoryInGBs: 8 },
      sourceDetails: { sourceType: 'image', imageId: 'ocid1.image.oc1..i' },
      createVnicDetails: { subnetId: 'ocid1.subnet.oc1..s', assignPublicIp: true },
    });
    expect(Buffer.from(body.metadata.user_data, 'base64').toString('utf8')).toContain('scn_secret-token');
  });

  it('a fixed shape has no shape config; TerminateInstance is a signed DELETE', async () => {
    const { fetch: fetchFn, requests } = fakeFetch((request) =>
      request.method === 'DELETE'
        ? new Response(null, { status: 204 })
        : Response.json({ id: 'ocid1.instance.oc1..y' }),
    );
    const provider = make(ociEnv, fetchFn);
    await provider.launch(spec({ value: 'VM.Standard2.1' }));
    expect(JSON.parse(requests[0]?.body ?? '{}').shapeConfig).toBeUndefined();
    await provider.terminate('ocid1.instance.oc1..y');
    expect(requests[1]).toMatchObject({
      method: 'DELETE',
      url: 'https://iaas.eu-frankfurt-1.oraclecloud.com/20160918/instances/ocid1.instance.oc1..y?preserveBootVolume=false',
    });
    verify(requests[1]!, ['x-date', '(request-target)', 'host']);
  });

  it('signOci signs exactly what it is given', () => {
    const headers = signOci(
      { method: 'GET', url: 'https://iaas.eu-frankfurt-1.oraclecloud.com/20160918/instances?limit=1' },
      { tenancyOcid: 't', userOcid: 'u', fingerprint: 'f', privateKey: pem },
      NOW,
    );
    expect(headers.authorization).toContain('headers="x-date (request-target) host"');
  });

  it('names what to set; an unusable key is a configuration error', async () => {
    const { fetch: fetchFn, requests } = fakeFetch(() => Response.json({}));
    await expect(make({}, fetchFn).launch(spec())).rejects.toThrow(
      'Oracle credentials are not configured (set OCI_TENANCY_OCID, OCI_USER_OCID, OCI_FINGERPRINT, OCI_PRIVATE_KEY or OCI_PRIVATE_KEY_FILE, and OCI_REGION)',
    );
    const { OCI_SUBNET_OCID: _, ...noSubnet } = ociEnv;
    await expect(make(noSubnet, fetchFn).launch(spec())).rejects.toThrow(
      'Oracle instance settings are not configured (set OCI_COMPARTMENT_OCID, OCI_AVAILABILITY_DOMAIN, OCI_SUBNET_OCID and OCI_IMAGE_OCID)',
    );
    await expect(make({ ...ociEnv, OCI_PRIVATE_KEY: 'not a key' }, fetchFn).launch(spec())).rejects.toMatchObject({
      notConfigured: true,
    });
    expect(requests).toEqual([]);
  });
});

describe('configuration', () => {
  it('has defaults and no credentials', () => {
    const c = loadScalingConfig({}, { port: 8080 });
    expect(c).toMatchObject({
      enabled: true,
      intervalSeconds: 30,
      sampleMaxAgeSeconds: 60,
      backend: 'cloud',
      controlPlaneUrl: 'http://127.0.0.1:8080',
      aws: { instanceType: 'c6i.large', securityGroupIds: [] },
    });
    expect(c.aws.accessKeyId).toBeUndefined();
  });

  it('refuses malformed values with the variable named', () => {
    expect(() => loadScalingConfig({ SCALING_INTERVAL_SECONDS: 'soon' })).toThrow(ConfigError);
    expect(() => loadScalingConfig({ SCALING_PROVIDER: 'mars' })).toThrow(/SCALING_PROVIDER/);
    expect(() => loadScalingConfig({ OCI_PRIVATE_KEY_FILE: '/nonexistent/key.pem' })).toThrow(/OCI_PRIVATE_KEY_FILE/);
  });

  it('SCALING_PROVIDER=local serves every provider name locally', () => {
    const local = createScalingProviders(loadScalingConfig({ SCALING_PROVIDER: 'local' }));
    expect(local.forRule('AWS').name).toBe('local');
    expect(local.forRule('Oracle').name).toBe('local');
    const cloud = createScalingProviders(loadScalingConfig({}));
    expect(cloud.forRule('DigitalOcean').name).toBe('DigitalOcean');
    expect(cloud.byBackend('local')?.name).toBe('local');
  });

  it('the boot script quotes every value', () => {
    const script = nodeBootScript(spec({ name: "it's" }), "https://cp.example.com/'x", 'run-node');
    expect(script).toContain("STREAMCLOUD_NODE_NAME='it'\\''s'");
    expect(script).toContain("<<'STREAMCLOUD_ENV'");
    expect(script.trimEnd().endsWith('exec run-node')).toBe(true);
  });
});

describe('local provider', () => {
  it('starts a node process serving the control API, and stops it', async () => {
    const provider = new LocalProvider({ hostname: '127.0.0.1' }, { controlPlaneUrl: null });
    try {
      const instance = await provider.launch(spec());
      expect(instance).toMatchObject({ hostname: '127.0.0.1', protocol: 'HTTP', locationDescription: 'Local machine' });
      expect(instance.externalId).toMatch(/^local-\d+$/);
      const base = `http://127.0.0.1:${instance.port}`;
      // The control plane's client, signing for the node's token, is answered; nobody else.
      const control = new NodeControlClient();
      const target = { ...instance, name: spec().name, token_hash: hashNodeToken(spec().token) };
      const metadata = await control.metadata(target);
      expect(metadata).toMatchObject({ nodeId: spec().nodeId, name: spec().name, provider: 'local' });
      expect(await control.refresh(target, 'ALL')).toEqual({ mode: 'ALL', refreshed: true });
      const anonymous = await fetch(`${base}/refresh`, { method: 'POST', body: JSON.stringify({ mode: 'ALL' }) });
      expect(anonymous.status).toBe(401);
      expect((await fetch(`${base}/metadata`)).status).toBe(401);
      const otherNode = { ...target, token_hash: hashNodeToken('scn_another-node') };
      await expect(control.metadata(otherNode)).rejects.toThrow('it answered HTTP 401');
      expect(provider.running()).toEqual([instance.externalId]);
      await provider.terminate(instance.externalId);
      expect(provider.running()).toEqual([]);
      await expect(fetch(`${base}/metadata`)).rejects.toThrow();
      // a process it did not start is left alone
      await provider.terminate('local-1');
    } finally {
      await provider.close();
    }
  }, 30_000);

  it('a command that does not start a node is a ProviderError', async () => {
    const provider = new LocalProvider({ hostname: '127.0.0.1', command: 'exit 3' }, { controlPlaneUrl: null });
    await expect(provider.launch(spec())).rejects.toThrow('The local node exited at start (code 3)');
  });
});
