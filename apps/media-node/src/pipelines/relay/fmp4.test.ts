import { describe, expect, it } from 'vitest';
import { type CmafObject, Fmp4Splitter } from '../../fmp4-splitter.js';
import { lastSegment } from './fmp4.js';

const box = (type: string, payload = 4, large = false): Buffer => {
  const body = Buffer.alloc(payload, 7);
  if (!large) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + payload, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body]);
  }
  const head = Buffer.alloc(16);
  head.writeUInt32BE(1, 0);
  head.write(type, 4, 'latin1');
  head.writeBigUInt64BE(BigInt(16 + payload), 8);
  return Buffer.concat([head, body]);
};

const types = (data: Buffer) => {
  const found: string[] = [];
  for (let at = 0; at < data.length; ) {
    found.push(data.toString('latin1', at + 4, at + 8));
    const size = data.readUInt32BE(at);
    at += size === 1 ? Number(data.readBigUInt64BE(at + 8)) : size;
  }
  return found;
};

describe('Fmp4Splitter', () => {
  it('cuts the header and each segment out of a byte stream, whatever its chunks', () => {
    const stream = Buffer.concat([
      box('ftyp'),
      box('moov', 40),
      box('prft'),
      box('moof', 20),
      box('mdat', 3000, true),
      box('styp'),
      box('moof', 20),
      box('mdat', 10),
    ]);
    for (const chunkSize of [1, 7, 64, stream.length]) {
      const objects: CmafObject[] = [];
      const splitter = new Fmp4Splitter((object) => objects.push(object));
      for (let at = 0; at < stream.length; at += chunkSize) splitter.push(stream.subarray(at, at + chunkSize));
      expect(objects.map((object) => [object.kind, types(object.data)])).toEqual([
        ['header', ['ftyp', 'moov']],
        ['segment', ['prft', 'moof', 'mdat']],
        ['segment', ['styp', 'moof', 'mdat']],
      ]);
    }
  });

  it('labels a last segment with a styp box carrying the lmsg brand', () => {
    const last = lastSegment(Buffer.concat([box('moof'), box('mdat')]));
    expect(types(last)).toEqual(['styp', 'moof', 'mdat']);
    expect(last.subarray(8, 24).toString('latin1')).toBe('cmfs\0\0\0\0cmfslmsg');
  });
});
