import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { SelectField } from '@/components/ui/form-fields';
import { useStorages } from '@/data/storages/get-storages';

export type StorageFieldProps = UseFormRegisterReturn & {
  error: string | undefined;
  /** The recording's storage when editing. */
  stored: string | undefined;
};

/** The storage a recording uploads to, from the caller's storages; a link to add one when there is none. */
export function StorageField({ error, stored, ...registration }: StorageFieldProps) {
  const storages = useStorages();
  const options = storages.data ?? [];
  // The stored storage is an option from the start, so the select keeps it while the list loads.
  const listed = options.some((storage) => storage.id === stored);
  return (
    <>
      <SelectField
        id="recording-storage"
        label="Storage"
        error={error}
        // defaultValue too: the select must show the stored storage before react-hook-form reads it back.
        defaultValue={stored ?? ''}
        {...registration}
      >
        <option value="">{storages.isPending ? 'Loading storages…' : 'Choose a storage'}</option>
        {options.map((storage) => (
          <option key={storage.id} value={storage.id}>
            {storage.name} ({storage.bucket})
          </option>
        ))}
        {stored && !listed && <option value={stored}>{storages.isPending ? 'Loading…' : stored}</option>}
      </SelectField>
      {storages.isSuccess && options.length === 0 && (
        <p className="small text-secondary mt-n2">
          No storage yet: <Link to="/storages/create">add a storage</Link> first.
        </p>
      )}
      {storages.isError && <p className="small text-danger mt-n2">The storages could not be loaded.</p>}
    </>
  );
}
