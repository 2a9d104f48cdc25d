import type { Storage, StorageCreateInput, StorageType, StorageUpdateInput } from '@streamcloud/contract';

/** What the inputs hold: text everywhere, an empty type until one is chosen. */
export interface StorageFormValues {
  name: string;
  type: StorageType | '';
  accessKeyId: string;
  secretAccessKey: string;
  regionName: string;
  bucket: string;
  path: string;
  endpoint: string;
}

export const NEW_STORAGE_VALUES: StorageFormValues = {
  name: '',
  type: '',
  accessKeyId: '',
  secretAccessKey: '',
  regionName: '',
  bucket: '',
  path: '',
  endpoint: '',
};

/** The secret is never sent back by the API: on edit its input starts blank (blank keeps it). */
export function toFormValues(storage: Storage): StorageFormValues {
  return {
    name: storage.name,
    type: storage.type,
    accessKeyId: storage.accessKeyId,
    secretAccessKey: '',
    regionName: storage.regionName ?? '',
    bucket: storage.bucket,
    path: storage.path ?? '',
    endpoint: storage.endpoint ?? '',
  };
}

/**
 * The request body the inputs stand for. The endpoint input is shown only for S3-compatible storage, so
 * for Amazon S3 whatever it still holds is not sent.
 */
export function toBody(values: StorageFormValues): StorageCreateInput & StorageUpdateInput {
  return {
    name: values.name,
    type: values.type as StorageType,
    accessKeyId: values.accessKeyId,
    secretAccessKey: values.secretAccessKey,
    regionName: values.regionName,
    bucket: values.bucket,
    path: values.path,
    endpoint: values.type === 'AmazonS3Compatible' ? values.endpoint : '',
  };
}
