import { API_BASE } from '@streamcloud/contract';
import { z } from 'zod';

export interface RuntimeConfig {
  /** Where the API lives: a path on this origin or an absolute URL. */
  apiBase: string;
  /** The configurable domain string in front of local storage keys. */
  storagePrefix: string;
}

export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = { apiBase: API_BASE, storagePrefix: '' };

export const RUNTIME_CONFIG_URL = './config.json';

const RuntimeConfigFile = z.object({
  apiBase: z.string().trim().min(1).optional(),
  storagePrefix: z.string().optional(),
});

/** Reads /config.json once at start; any failure falls back to the defaults. */
export async function loadRuntimeConfig(
  fetchFn: typeof fetch,
  url: string = RUNTIME_CONFIG_URL,
): Promise<RuntimeConfig> {
  try {
    const response = await fetchFn(url, { cache: 'no-store', headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const file = RuntimeConfigFile.parse(await response.json());
    return {
      apiBase: file.apiBase ?? DEFAULT_RUNTIME_CONFIG.apiBase,
      storagePrefix: file.storagePrefix ?? DEFAULT_RUNTIME_CONFIG.storagePrefix,
    };
  } catch (error) {
    console.warn('Runtime configuration unavailable; using the defaults', error);
    return DEFAULT_RUNTIME_CONFIG;
  }
}
