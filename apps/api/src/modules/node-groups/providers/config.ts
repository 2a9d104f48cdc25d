import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../../../lib/config-error.js';

/**
 * The autoscaler's and the providers' configuration, from the environment (see
 * docs/scaling-providers.md). Missing credentials are not an error here: a provider without them
 * answers every call with a message naming the variables to set.
 */
export interface ScalingConfig {
  /** Whether the server runs the autoscaler loop (SCALING_ENABLED, default true). */
  enabled: boolean;
  intervalSeconds: number;
  sampleMaxAgeSeconds: number;
  eventRetentionDays: number;
  /** `local` serves every provider name with the local provider (SCALING_PROVIDER). */
  backend: 'cloud' | 'local';
  /** The URL started nodes reach the control plane at. */
  controlPlaneUrl: string | null;
  /** The command the cloud instances' boot script runs to start the media node. */
  nodeStartCommand: string;
  aws: AwsConfig;
  digitalOcean: DigitalOceanConfig;
  oracle: OracleConfig;
  local: LocalConfig;
}

export interface AwsConfig {
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  region?: string;
  imageId?: string;
  instanceType: string;
  subnetId?: string;
  securityGroupIds: string[];
  keyName?: string;
  /** Overrides https://ec2.{region}.amazonaws.com/ (tests, compatible clouds). */
  endpoint?: string;
}

export interface DigitalOceanConfig {
  token?: string;
  region?: string;
  image?: string;
  size: string;
  sshKeys: string[];
  vpcUuid?: string;
  endpoint: string;
}

export interface OracleConfig {
  tenancyOcid?: string;
  userOcid?: string;
  fingerprint?: string;
  privateKey?: string;
  region?: string;
  compartmentOcid?: string;
  availabilityDomain?: string;
  subnetOcid?: string;
  imageOcid?: string;
  shape: string;
  shapeOcpus: number;
  shapeMemoryGb: number;
  /** Overrides https://iaas.{region}.oraclecloud.com. */
  endpoint?: string;
}

export interface LocalConfig {
  /** A command line that starts one node; defaults to this repository's local node script. */
  command?: string;
  hostname: string;
}

const optional = z.string().trim().min(1).optional();
const list = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );
const positive = (fallback: number) => z.coerce.number().positive().default(fallback);

const Env = z.object({
  SCALING_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((value) => value === 'true' || value === '1'),
  SCALING_INTERVAL_SECONDS: positive(30),
  SCALING_SAMPLE_MAX_AGE_SECONDS: positive(60),
  SCALING_EVENT_RETENTION_DAYS: positive(7),
  SCALING_PROVIDER: z.enum(['cloud', 'local']).default('cloud'),
  SCALING_CONTROL_PLANE_URL: z.url().optional(),
  SCALING_NODE_START_COMMAND: z.string().min(1).default('streamcloud-media-node'),
  AWS_ACCESS_KEY_ID: optional,
  AWS_SECRET_ACCESS_KEY: optional,
  AWS_SESSION_TOKEN: optional,
  AWS_REGION: optional,
  AWS_SCALING_IMAGE_ID: optional,
  AWS_SCALING_INSTANCE_TYPE: z.string().trim().min(1).default('c6i.large'),
  AWS_SCALING_SUBNET_ID: optional,
  AWS_SCALING_SECURITY_GROUP_IDS: list,
  AWS_SCALING_KEY_NAME: optional,
  AWS_EC2_ENDPOINT: z.url().optional(),
  DIGITALOCEAN_TOKEN: optional,
  DIGITALOCEAN_REGION: optional,
  DIGITALOCEAN_IMAGE: optional,
  DIGITALOCEAN_SIZE: z.string().trim().min(1).default('s-2vcpu-4gb'),
  DIGITALOCEAN_SSH_KEYS: list,
  DIGITALOCEAN_VPC_UUID: optional,
  DIGITALOCEAN_API_URL: z.url().default('https://api.digitalocean.com'),
  OCI_TENANCY_OCID: optional,
  OCI_USER_OCID: optional,
  OCI_FINGERPRINT: optional,
  OCI_PRIVATE_KEY: optional,
  OCI_PRIVATE_KEY_FILE: optional,
  OCI_REGION: optional,
  OCI_COMPARTMENT_OCID: optional,
  OCI_AVAILABILITY_DOMAIN: optional,
  OCI_SUBNET_OCID: optional,
  OCI_IMAGE_OCID: optional,
  OCI_SHAPE: z.string().trim().min(1).default('VM.Standard.E4.Flex'),
  OCI_SHAPE_OCPUS: positive(2),
  OCI_SHAPE_MEMORY_GB: positive(8),
  OCI_IAAS_ENDPOINT: z.url().optional(),
  SCALING_LOCAL_NODE_COMMAND: optional,
  SCALING_LOCAL_NODE_HOSTNAME: z.string().trim().min(1).default('127.0.0.1'),
});

/** Reads the scaling configuration; a malformed value stops the start with a message naming it. */
export function loadScalingConfig(
  env: NodeJS.ProcessEnv = process.env,
  defaults: { port?: number } = {},
): ScalingConfig {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = Env.safeParse(blankAsUnset);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid scaling configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  let privateKey = e.OCI_PRIVATE_KEY?.replaceAll('\\n', '\n');
  if (!privateKey && e.OCI_PRIVATE_KEY_FILE) {
    try {
      privateKey = readFileSync(e.OCI_PRIVATE_KEY_FILE, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `Invalid scaling configuration:\n  OCI_PRIVATE_KEY_FILE: cannot be read (${(error as Error).message})`,
      );
    }
  }
  return {
    enabled: e.SCALING_ENABLED,
    intervalSeconds: e.SCALING_INTERVAL_SECONDS,
    sampleMaxAgeSeconds: e.SCALING_SAMPLE_MAX_AGE_SECONDS,
    eventRetentionDays: e.SCALING_EVENT_RETENTION_DAYS,
    backend: e.SCALING_PROVIDER,
    controlPlaneUrl:
      e.SCALING_CONTROL_PLANE_URL ?? (defaults.port !== undefined ? `http://127.0.0.1:${defaults.port}` : null),
    nodeStartCommand: e.SCALING_NODE_START_COMMAND,
    aws: {
      accessKeyId: e.AWS_ACCESS_KEY_ID,
      secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
      sessionToken: e.AWS_SESSION_TOKEN,
      region: e.AWS_REGION,
      imageId: e.AWS_SCALING_IMAGE_ID,
      instanceType: e.AWS_SCALING_INSTANCE_TYPE,
      subnetId: e.AWS_SCALING_SUBNET_ID,
      securityGroupIds: e.AWS_SCALING_SECURITY_GROUP_IDS,
      keyName: e.AWS_SCALING_KEY_NAME,
      endpoint: e.AWS_EC2_ENDPOINT,
    },
    digitalOcean: {
      token: e.DIGITALOCEAN_TOKEN,
      region: e.DIGITALOCEAN_REGION,
      image: e.DIGITALOCEAN_IMAGE,
      size: e.DIGITALOCEAN_SIZE,
      sshKeys: e.DIGITALOCEAN_SSH_KEYS,
      vpcUuid: e.DIGITALOCEAN_VPC_UUID,
      endpoint: e.DIGITALOCEAN_API_URL,
    },
    oracle: {
      tenancyOcid: e.OCI_TENANCY_OCID,
      userOcid: e.OCI_USER_OCID,
      fingerprint: e.OCI_FINGERPRINT,
      privateKey,
      region: e.OCI_REGION,
      compartmentOcid: e.OCI_COMPARTMENT_OCID,
      availabilityDomain: e.OCI_AVAILABILITY_DOMAIN,
      subnetOcid: e.OCI_SUBNET_OCID,
      imageOcid: e.OCI_IMAGE_OCID,
      shape: e.OCI_SHAPE,
      shapeOcpus: e.OCI_SHAPE_OCPUS,
      shapeMemoryGb: e.OCI_SHAPE_MEMORY_GB,
      endpoint: e.OCI_IAAS_ENDPOINT,
    },
    local: { command: e.SCALING_LOCAL_NODE_COMMAND, hostname: e.SCALING_LOCAL_NODE_HOSTNAME },
  };
}

/** No credentials anywhere: every cloud provider says what to set; the loop is off. */
export const unconfiguredScaling = (): ScalingConfig => ({ ...loadScalingConfig({}), enabled: false });
