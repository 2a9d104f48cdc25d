import type { StreamUsage } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { accountCsv, accountCsvFileName, STREAM_CSV_FILE_NAME, streamCsv } from './csv';

const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const N1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const N2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

const streams: StreamUsage[] = [
  {
    streamId: S1,
    caption: 'Main',
    accountId: N1,
    protocol: 'InputRTMP',
    processing: 'Passthrough',
    duration: 5400,
    incoming: [
      {
        sessionId: 'pub-1',
        nodeId: N1,
        node: 'edge-eu',
        started: '2024-03-05T10:00:00.000Z',
        ended: '2024-03-05T11:30:00.000Z',
        duration: 5400,
        upload: 3_000_000_000,
        download: 1_500_000,
      },
    ],
    internode: [{ nodeId: N2, node: 'edge, "na"', duration: 1800, upload: 0, download: 1_500_000_000 }],
    outgoing: [{ nodeId: N2, node: 'edge, "na"', duration: 3000, upload: 1_000_000, download: 6_000_500_000 }],
  },
  {
    streamId: S2,
    caption: null,
    accountId: N1,
    protocol: 'InputWebRTC',
    processing: 'Transcode',
    duration: 100_000,
    incoming: [
      {
        sessionId: 'w-1',
        nodeId: N1,
        node: 'edge-eu',
        started: '2024-03-31T23:00:00.000Z',
        ended: '2024-04-02T02:46:40.000Z',
        duration: 100_000,
        upload: 123_456_789,
        download: 0,
      },
    ],
    internode: [],
    outgoing: [],
  },
];

describe('account CSV', () => {
  it('is byte for byte the spec layout', () => {
    expect(accountCsv(streams)).toBe(
      'Stream ID,Type,Node,Start date,End date,Duration,Upload GB,Download GB\r\n' +
        `${S1},Incoming,edge-eu,05/03/24 10:00:00,05/03/24 11:30:00,01:30:00,3.000,0.002\r\n` +
        `${S1},Internode,"edge, ""na""",,,00:30:00,0.000,1.500\r\n` +
        `${S1},Outgoing,"edge, ""na""",,,00:50:00,0.001,6.001\r\n` +
        '\r\n' +
        `${S2},Incoming,edge-eu,31/03/24 23:00:00,02/04/24 02:46:40,1 day 03:46:40,0.123,0.000\r\n`,
    );
  });

  it('neutralises node names a spreadsheet would run as formulas (OWASP)', () => {
    const hostile: StreamUsage = {
      ...(streams[1] as StreamUsage),
      incoming: [{ ...(streams[1]?.incoming[0] as StreamUsage['incoming'][number]), node: "=cmd|' /C calc'!A0" }],
      outgoing: [{ nodeId: N2, node: '=HYPERLINK("http://evil.example","x")', duration: 1, upload: 0, download: 0 }],
    };
    const lines = accountCsv([hostile]).split('\r\n');
    expect(lines[1]?.split(',')[2]).toBe("'=cmd|' /C calc'!A0");
    expect(lines[2]).toContain(',"\'=HYPERLINK(""http://evil.example"",""x"")",');
  });

  it('has only the headers without usage', () => {
    expect(accountCsv([])).toBe('Stream ID,Type,Node,Start date,End date,Duration,Upload GB,Download GB\r\n');
  });

  it("is named after the account's username and the picked dates", () => {
    expect(accountCsvFileName('alice', '2024-03-01', '2024-03-31')).toBe('Report alice 2024-03-01-2024-03-31.csv');
  });
});

describe('stream CSV', () => {
  it('is Duration, Incoming and Egress (internode plus outgoing), GB with 2 decimals', () => {
    expect(streamCsv(streams.slice(0, 1))).toBe('Duration,01:30:00\r\nIncoming,3.00\r\nEgress,7.50\r\n');
  });

  it('reads zero without usage, and is named Report', () => {
    expect(streamCsv([])).toBe('Duration,00:00:00\r\nIncoming,0.00\r\nEgress,0.00\r\n');
    expect(STREAM_CSV_FILE_NAME).toBe('Report.csv');
  });
});
