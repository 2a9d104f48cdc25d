/** A SegmentTypeBox with these brands (major brand first). */
export function stypBox(brands: string[]): Buffer {
  const box = Buffer.alloc(16 + 4 * (brands.length - 1));
  box.writeUInt32BE(box.length, 0);
  box.write('styp', 4, 'latin1');
  box.write(brands[0] ?? 'cmfs', 8, 'latin1');
  box.writeUInt32BE(0, 12);
  for (const [i, brand] of brands.slice(1).entries()) box.write(brand, 16 + 4 * i, 'latin1');
  return box;
}

/** The last segment of a track: labelled with the `lmsg` brand (DASH-IF ingest: no more segments follow). */
export const lastSegment = (segment: Buffer): Buffer => Buffer.concat([stypBox(['cmfs', 'cmfs', 'lmsg']), segment]);

/** An empty MovieFragmentRandomAccessBox: the end of a long-running ingest POST (Smooth and Unified Streaming). */
export const EMPTY_MFRA = Buffer.from([0, 0, 0, 8, 0x6d, 0x66, 0x72, 0x61]);
