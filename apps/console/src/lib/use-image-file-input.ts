import type { ImageLimits } from '@streamcloud/contract';
import { type ChangeEvent, useState } from 'react';
import { readImageFile } from './image-file';

export interface ImageFileInput {
  /** True while a picked file is being read and checked. */
  reading: boolean;
  /** The file input's change handler. */
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * A PNG/JPEG file input: reads the picked file, checks it against `limits` as the server will, and hands on
 * its data URI or says why not. The input is cleared afterwards so the same file can be picked again.
 */
export function useImageFileInput(
  limits: ImageLimits,
  onImage: (dataUri: string) => void,
  onRefused: (message: string) => void,
): ImageFileInput {
  const [reading, setReading] = useState(false);
  const read = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    setReading(true);
    try {
      const result = await readImageFile(file, limits);
      if (result.ok) onImage(result.dataUri);
      else onRefused(result.message);
    } finally {
      setReading(false);
      input.value = '';
    }
  };
  return { reading, onChange: (event) => void read(event.currentTarget) };
}
