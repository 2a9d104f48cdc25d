import { REGION_ORDER } from '@streamcloud/contract';
import type { FieldPath } from 'react-hook-form';
import type { TextFieldProps } from '@/components/ui/form-fields';
import type { NodeFormValues } from './node-form-values';

/** One text input of the node form: where its value goes, its label and how it is typed. */
export interface NodeTextFieldSpec {
  name: FieldPath<NodeFormValues>;
  id: string;
  label: string;
  /** The grid column it takes: 'col-md-3'. */
  column: string;
  input: Pick<TextFieldProps, 'type' | 'min' | 'max' | 'step' | 'autoComplete'>;
  /** Values offered as the user types (a datalist); free text stays allowed. */
  suggestions?: { id: string; values: readonly string[] };
}

const text = { autoComplete: 'off' } as const;

/** The section 3 fields after the name, a card each group, in the spec's order. */
export const NODE_FIELD_GROUPS: readonly { title: string; fields: readonly NodeTextFieldSpec[] }[] = [
  {
    title: 'Connection',
    fields: [
      {
        name: 'connection.protocol',
        id: 'node-protocol',
        label: 'Protocol',
        column: 'col-md-3',
        input: text,
        suggestions: { id: 'node-protocols', values: ['HTTP', 'HTTPS'] },
      },
      { name: 'connection.hostname', id: 'node-hostname', label: 'Hostname', column: 'col-md-6', input: text },
      {
        name: 'connection.port',
        id: 'node-port',
        label: 'Port',
        column: 'col-md-3',
        input: { type: 'number', min: 0, max: 65535, step: 1 },
      },
    ],
  },
  {
    title: 'Settings',
    fields: [
      {
        name: 'settings.bandwidthLimitMbps',
        id: 'node-bandwidth',
        label: 'Bandwidth limit (Mbps)',
        column: 'col-md-4',
        input: { type: 'number', min: 0, step: 'any' },
      },
      { name: 'settings.publicIPv4', id: 'node-public-ipv4', label: 'Public IPv4', column: 'col-md-4', input: text },
      { name: 'settings.privateIPv4', id: 'node-private-ipv4', label: 'Private IPv4', column: 'col-md-4', input: text },
    ],
  },
  {
    title: 'Location',
    fields: [
      {
        name: 'location.code',
        id: 'node-location-code',
        label: 'Location code',
        column: 'col-md-3',
        input: text,
        suggestions: { id: 'node-region-codes', values: REGION_ORDER },
      },
      {
        name: 'location.description',
        id: 'node-location-description',
        label: 'Location description',
        column: 'col-md-9',
        input: text,
      },
      {
        name: 'location.geo.latitude',
        id: 'node-latitude',
        label: 'Latitude',
        column: 'col-md-6',
        input: { type: 'number', step: 'any', min: -90, max: 90 },
      },
      {
        name: 'location.geo.longitude',
        id: 'node-longitude',
        label: 'Longitude',
        column: 'col-md-6',
        input: { type: 'number', step: 'any', min: -180, max: 180 },
      },
    ],
  },
];

/** The two flags, as switches under the name. */
export const NODE_SWITCHES: readonly { name: 'opened' | 'enabled'; id: string; label: string; help: string }[] = [
  { name: 'opened', id: 'node-opened', label: 'Opened', help: 'Available for new connections.' },
  { name: 'enabled', id: 'node-enabled', label: 'Enabled', help: 'Available for use.' },
];
