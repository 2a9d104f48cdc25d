import { API_BASE } from '@streamcloud/contract';

export interface RuntimeConfig {
  /** Where the API lives: a path on this origin or an absolute URL. */
  apiBase: string;
  /** The configurable domain string in front of local storage keys. */
  storagePrefix: string;
}

export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = { apiBase: API_BASE, storagePrefix: '' };

export const RUNTIME_CONFIG_URL = './config.json';

/**
 * The fields of /config.json, checked by hand rather than with a zod schema: the file is read before
 * anything else, and zod is not part of the console's first load.
 */
function readConfigFile(file: unknown): Partial<RuntimeConfig> {
  if (typeof file !== 'object' || file === null || Array.isArray(file)) throw new Error('not an object');
  const { apiBase, storagePrefix } = file as Record<string, unknown>;
  if (apiBase !== undefined && (typeof apiBase !== 'string' || apiBase.trim() === '')) {
    throw new Error('apiBase must be a non-empty string');
  }
  if (storagePrefix !== undefined && typeof storagePrefix !== 'string') {
    throw new Error('storagePrefix must be a string');
  }
  return {
    ...(apiBase === undefined ? {} : { apiBase: apiBase.trim() }),
    ...(storagePrefix === undefined ? {} : { storagePrefix }),
  };
}

/**
 * Reads /config.json once at start; any failure falls back to the defaults. index.html preloads it, so it
 * arrives with the scripts instead of after them: this fetch must match that preload (no headers or cache
 * mode of its own; the server answers it `no-cache`, so it is revalidated all the same).
 */
export async function loadRuntimeConfig(
  fetchFn: typeof fetch,
  url: string = RUNTIME_CONFIG_URL,
): Promise<RuntimeConfig> {
  try {
    const response = await fetchFn(url);
    if (!response.ok) throw new Error(`status ${response.status}`);
    const file = readConfigFile(await response.json());
    return {
      apiBase: file.apiBase ?? DEFAULT_RUNTIME_CONFIG.apiBase,
      storagePrefix: file.storagePrefix ?? DEFAULT_RUNTIME_CONFIG.storagePrefix,
    };
  } catch (error) {
    console.warn('Runtime configuration unavailable; using the defaults', error);
    return DEFAULT_RUNTIME_CONFIG;
  }
}
