/** AMF0 (Adobe's Action Message Format, version 0): the values of RTMP commands, as a play client needs them. */
export type Amf0Value = number | boolean | string | null | undefined | { [key: string]: Amf0Value };

/** `values` written one after the other (a command: its name, transaction id, command object, arguments). */
export function encodeAmf0(values: readonly Amf0Value[]): Buffer {
  return Buffer.concat(values.map(encodeValue));
}

function encodeValue(value: Amf0Value): Buffer {
  if (typeof value === 'number') {
    const out = Buffer.alloc(9);
    out[0] = 0x00;
    out.writeDoubleBE(value, 1);
    return out;
  }
  if (typeof value === 'boolean') return Buffer.from([0x01, value ? 1 : 0]);
  if (typeof value === 'string') return Buffer.concat([Buffer.from([0x02]), shortString(value)]);
  if (value === null || value === undefined) return Buffer.from([0x05]);
  const entries = Object.entries(value).map(([key, each]) => Buffer.concat([shortString(key), encodeValue(each)]));
  return Buffer.concat([Buffer.from([0x03]), ...entries, Buffer.from([0x00, 0x00, 0x09])]);
}

function shortString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** Objects nest at most this deep in what is read (a server's status objects are one level). */
const MAX_DEPTH = 8;

/** The values in `data`, as far as they are of the kinds above (also ECMA arrays); throws on a value cut short. */
export function decodeAmf0(data: Buffer): Amf0Value[] {
  const reader = { data, at: 0 };
  const values: Amf0Value[] = [];
  while (reader.at < data.length) values.push(readValue(reader, 0));
  return values;
}

interface Reader {
  data: Buffer;
  at: number;
}

function need(reader: Reader, bytes: number): void {
  if (reader.at + bytes > reader.data.length) throw new Error('an AMF0 value cut short');
}

function readValue(reader: Reader, depth: number): Amf0Value {
  need(reader, 1);
  const marker = reader.data[reader.at++];
  switch (marker) {
    case 0x00:
      need(reader, 8);
      reader.at += 8;
      return reader.data.readDoubleBE(reader.at - 8);
    case 0x01:
      need(reader, 1);
      return reader.data[reader.at++] !== 0;
    case 0x02:
      return readShortString(reader);
    case 0x05:
      return null;
    case 0x06:
      return undefined;
    case 0x08:
      need(reader, 4);
      reader.at += 4;
      return readProperties(reader, depth);
    case 0x03:
      return readProperties(reader, depth);
    default:
      throw new Error(`an AMF0 value of type ${marker} this client does not read`);
  }
}

function readShortString(reader: Reader): string {
  need(reader, 2);
  const length = reader.data.readUInt16BE(reader.at);
  need(reader, 2 + length);
  reader.at += 2 + length;
  return reader.data.toString('utf8', reader.at - length, reader.at);
}

function readProperties(reader: Reader, depth: number): { [key: string]: Amf0Value } {
  if (depth >= MAX_DEPTH) throw new Error('AMF0 objects nested too deep');
  const object: { [key: string]: Amf0Value } = {};
  for (;;) {
    const key = readShortString(reader);
    need(reader, 1);
    if (key === '' && reader.data[reader.at] === 0x09) {
      reader.at++;
      return object;
    }
    object[key] = readValue(reader, depth + 1);
  }
}
