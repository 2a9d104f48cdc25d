import { describe, expect, it } from 'vitest';
import { csvCell, csvRecord } from './csv.js';

describe('csvCell', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('')).toBe('');
  });

  it("neutralises every cell a spreadsheet would take for a formula (OWASP), with a leading '", () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe('"\'=HYPERLINK(""http://evil.example"",""x"")"');
    expect(csvCell("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe('"\'\r=1"');
    // Only the start counts.
    expect(csvCell('edge-1=eu')).toBe('edge-1=eu');
    expect(csvCell('01:30:00')).toBe('01:30:00');
  });
});

describe('csvRecord', () => {
  it('joins the cells with commas', () => {
    expect(csvRecord(['id', '=1+1', 'a,b'])).toBe('id,\'=1+1,"a,b"');
  });
});
