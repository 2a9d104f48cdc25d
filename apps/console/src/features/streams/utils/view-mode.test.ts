import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '@/test/memory-storage';
import { DEFAULT_VIEW_MODE, readViewMode, VIEW_MODE_KEY, writeViewMode } from './view-mode';

afterEach(() => window.localStorage.clear());

describe('view mode', () => {
  it('starts as a list', () => {
    expect(readViewMode(new MemoryStorage())).toBe('list');
    expect(DEFAULT_VIEW_MODE).toBe('list');
  });

  it('is remembered under the streams view mode key', () => {
    const storage = new MemoryStorage();
    writeViewMode('grid', storage);
    expect(storage.getItem(VIEW_MODE_KEY)).toBe('grid');
    expect(readViewMode(storage)).toBe('grid');
    writeViewMode('list', storage);
    expect(readViewMode(storage)).toBe('list');
  });

  it('puts the configured prefix in front of the key', () => {
    const storage = new MemoryStorage();
    writeViewMode('grid', storage, 'acme_');
    expect(storage.getItem(`acme_${VIEW_MODE_KEY}`)).toBe('grid');
    expect(readViewMode(storage, 'acme_')).toBe('grid');
  });

  it('uses the browser storage by default', () => {
    writeViewMode('grid');
    expect(window.localStorage.getItem(VIEW_MODE_KEY)).toBe('grid');
    expect(readViewMode()).toBe('grid');
  });

  it('ignores what it does not know and storage that fails', () => {
    const storage = new MemoryStorage();
    storage.setItem(VIEW_MODE_KEY, 'table');
    expect(readViewMode(storage)).toBe('list');
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(readViewMode(broken)).toBe('list');
    expect(() => writeViewMode('grid', broken)).not.toThrow();
  });
});
