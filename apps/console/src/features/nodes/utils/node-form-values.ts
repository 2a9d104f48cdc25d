import { NODE_DEFAULTS, type Node, type NodeInputDraft } from '@streamcloud/contract';

/** What the form's inputs hold: text as typed (numbers too), and the two flags. */
export interface NodeFormValues {
  name: string;
  connection: { protocol: string; hostname: string; port: string };
  settings: { bandwidthLimitMbps: string; publicIPv4: string; privateIPv4: string };
  location: { code: string; description: string; geo: { latitude: string; longitude: string } };
  opened: boolean;
  enabled: boolean;
}

export const NEW_NODE_VALUES: NodeFormValues = {
  name: '',
  connection: { protocol: NODE_DEFAULTS.protocol, hostname: '', port: String(NODE_DEFAULTS.port) },
  settings: { bandwidthLimitMbps: String(NODE_DEFAULTS.bandwidthLimitMbps), publicIPv4: '', privateIPv4: '' },
  location: { code: '', description: '', geo: { latitude: '', longitude: '' } },
  opened: NODE_DEFAULTS.opened,
  enabled: NODE_DEFAULTS.enabled,
};

export function toFormValues(node: Node): NodeFormValues {
  return {
    name: node.name,
    connection: {
      protocol: node.connection.protocol,
      hostname: node.connection.hostname,
      port: String(node.connection.port),
    },
    settings: {
      bandwidthLimitMbps: String(node.settings.bandwidthLimitMbps),
      publicIPv4: node.settings.publicIPv4 ?? '',
      privateIPv4: node.settings.privateIPv4 ?? '',
    },
    location: {
      code: node.location.code ?? '',
      description: node.location.description ?? '',
      geo: {
        latitude: node.location.geo ? String(node.location.geo.latitude) : '',
        longitude: node.location.geo ? String(node.location.geo.longitude) : '',
      },
    },
    opened: node.opened,
    enabled: node.enabled,
  };
}

/** An empty number field is null, so the contract says it is required rather than using a default. */
const numberOrNull = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/**
 * The body the contract's NodeInput validates: numbers parsed, empty optional text as is (the schema
 * stores it as null), and no geo point when both coordinates are empty.
 */
export function toDraft(values: NodeFormValues): NodeInputDraft {
  const { latitude, longitude } = values.location.geo;
  const noGeo = latitude.trim() === '' && longitude.trim() === '';
  return {
    name: values.name,
    connection: {
      protocol: values.connection.protocol,
      hostname: values.connection.hostname,
      port: numberOrNull(values.connection.port) as number,
    },
    settings: {
      bandwidthLimitMbps: numberOrNull(values.settings.bandwidthLimitMbps) as number,
      publicIPv4: values.settings.publicIPv4,
      privateIPv4: values.settings.privateIPv4,
    },
    location: {
      code: values.location.code,
      description: values.location.description,
      geo: noGeo ? null : { latitude: numberOrNull(latitude) as number, longitude: numberOrNull(longitude) as number },
    },
    opened: values.opened,
    enabled: values.enabled,
  };
}
