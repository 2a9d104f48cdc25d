import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILE_NAME,
  expandFileName,
  FILE_NAME_LIMIT,
  FILE_NAME_MAX,
  FILE_NAME_PLACEHOLDERS,
  type FileNameContext,
  type FileNamePlaceholder,
  fileNameExample,
  fileNameHasForbiddenCharacters,
  hasPlaceholders,
  limitFileName,
  normalizeFileName,
  placeholdersIn,
  placeholderToken,
  renderFileName,
  togglePlaceholder,
} from './filename-template.js';

/** A tiny seeded generator (mulberry32), so every run tries the same cases and a failure can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  const hex = (length: number) => Array.from({ length }, () => pick('0123456789abcdef'.split(''))).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
  const TEXT = 'abcXYZ019-_.+ {}~é'.split('');
  /** Free text mixed with placeholders and brace noise, up to `max` characters. */
  const template = (max: number) => {
    let out = '';
    const target = int(0, max);
    while (out.length < target) {
      const roll = next();
      if (roll < 0.25) out += placeholderToken(pick(FILE_NAME_PLACEHOLDERS));
      else if (roll < 0.3) out += pick(['{nope}', '{', '}', '{Year}', '{{uuid}}']);
      else out += pick(TEXT);
    }
    return out.slice(0, max);
  };
  const context = (): FileNameContext => ({
    date: new Date(int(0, 4_102_444_800_000)),
    streamId: uuid(),
    streamName: `${pick(['in', 'out', 'as'])}+${uuid()}`,
    uuid,
  });
  return { next, int, pick, uuid, template, context };
}

const RUNS = 500;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const FIXED: FileNameContext = {
  date: new Date('2025-03-04T05:06:07.089Z'),
  streamId: '11111111-2222-4333-8444-555555555555',
  streamName: 'in+11111111-2222-4333-8444-555555555555',
  uuid: () => 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
};

describe('placeholders', () => {
  it('expand to their values in UTC', () => {
    const all = FILE_NAME_PLACEHOLDERS.map(placeholderToken).join('|');
    expect(expandFileName(all, FIXED).split('|')).toEqual([
      '2025',
      '03',
      '04',
      '05',
      '06',
      '07',
      '089',
      String(Math.floor(Date.parse('2025-03-04T05:06:07.089Z') / 1000)),
      '2025-03-04T05:06:07.089Z',
      FIXED.streamId,
      FIXED.streamName,
      'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    ]);
  });

  it('give streamName in each of its forms', () => {
    for (const form of ['in', 'out', 'as'] as const) {
      const streamName = `${form}+${FIXED.streamId}`;
      expect(expandFileName('rec_{streamName}', { ...FIXED, streamName })).toBe(`rec_${streamName}`);
    }
  });

  it('leave unknown or miswritten words as written', () => {
    expect(expandFileName('{nope}{Year}{ year }{', FIXED)).toBe('{nope}{Year}{ year }{');
  });

  it('are found once each, in list order', () => {
    expect(placeholdersIn('{uuid}-{year}-{uuid}-{other}')).toEqual(['year', 'uuid']);
    expect(hasPlaceholders('plain')).toBe(false);
  });

  it('refuse path separators and control characters', () => {
    expect(fileNameHasForbiddenCharacters('a/b')).toBe(true);
    expect(fileNameHasForbiddenCharacters('a\\b')).toBe(true);
    expect(fileNameHasForbiddenCharacters('a\nb')).toBe(true);
    expect(fileNameHasForbiddenCharacters('a+b {uuid}.x')).toBe(false);
  });
});

describe('normalizeFileName', () => {
  it('makes an empty or blank name a uuid', () => {
    expect(normalizeFileName('', { autostart: false })).toBe(DEFAULT_FILE_NAME);
    expect(normalizeFileName('   ', { autostart: true })).toBe(DEFAULT_FILE_NAME);
  });

  it('appends a uuid for autostart when the name has no placeholder', () => {
    expect(normalizeFileName('show', { autostart: true })).toBe('show_{uuid}');
    expect(normalizeFileName('show', { autostart: false })).toBe('show');
    expect(normalizeFileName('show_{year}', { autostart: true })).toBe('show_{year}');
  });

  it('keeps within the field limit when it appends', () => {
    const long = 'x'.repeat(FILE_NAME_MAX);
    const normalized = normalizeFileName(long, { autostart: true });
    expect(normalized).toHaveLength(FILE_NAME_MAX);
    expect(normalized.endsWith('_{uuid}')).toBe(true);
  });

  it('properties: stored names are never blank, fit the field, are stable, and autostart ones have a placeholder', () => {
    const random = generator(1);
    for (let run = 0; run < RUNS; run++) {
      const template = random.template(FILE_NAME_MAX);
      const autostart = random.next() < 0.5;
      const normalized = normalizeFileName(template, { autostart });
      expect(normalized.trim()).not.toBe('');
      expect(normalized.length).toBeLessThanOrEqual(FILE_NAME_MAX);
      expect(normalizeFileName(normalized, { autostart })).toBe(normalized);
      if (autostart) expect(hasPlaceholders(normalized)).toBe(true);
      if (template.trim() !== '' && (!autostart || hasPlaceholders(template))) expect(normalized).toBe(template.trim());
    }
  });
});

describe('renderFileName and the limit of 254', () => {
  it('truncates a long name and appends a uuid, to exactly the limit', () => {
    const name = limitFileName('n'.repeat(300), FIXED.uuid);
    expect(name).toHaveLength(FILE_NAME_LIMIT);
    expect(name).toBe(`${'n'.repeat(FILE_NAME_LIMIT - 37)}_aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee`);
    expect(limitFileName('n'.repeat(FILE_NAME_LIMIT), FIXED.uuid)).toBe('n'.repeat(FILE_NAME_LIMIT));
  });

  it('renders an empty template as a uuid', () => {
    expect(renderFileName('', FIXED, { autostart: false })).toBe('aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee');
  });

  it('properties: a rendered name is within the limit, keeps no placeholder, and is the expansion when it fits', () => {
    const random = generator(2);
    for (let run = 0; run < RUNS; run++) {
      const template = random.template(FILE_NAME_MAX);
      const autostart = random.next() < 0.5;
      const context = random.context();
      const uuids: string[] = [];
      const recording = { ...context, uuid: () => uuids[uuids.push(context.uuid()) - 1] as string };
      const rendered = renderFileName(template, recording, { autostart });
      expect(rendered.length).toBeLessThanOrEqual(FILE_NAME_LIMIT);
      expect(rendered.length).toBeGreaterThan(0);

      // The same uuids again give the expansion the render started from.
      let replay = 0;
      const expanded = expandFileName(normalizeFileName(template, { autostart }), {
        ...context,
        uuid: () => uuids[replay++] as string,
      });
      if (expanded.length <= FILE_NAME_LIMIT) {
        expect(rendered).toBe(expanded);
        for (const placeholder of FILE_NAME_PLACEHOLDERS) {
          // A token could only survive inside a value; values hold no braces.
          expect(rendered.includes(placeholderToken(placeholder))).toBe(false);
        }
      } else {
        expect(rendered).toHaveLength(FILE_NAME_LIMIT);
        expect(rendered.startsWith(expanded.slice(0, FILE_NAME_LIMIT - 37))).toBe(true);
        expect(rendered.slice(-37)).toMatch(new RegExp(`^_${UUID.source}$`));
      }
    }
  });

  it('properties: every name with a uuid placeholder gets a fresh uuid per render', () => {
    const random = generator(3);
    for (let run = 0; run < 100; run++) {
      const template = `${random.template(40)}{uuid}`;
      const context = random.context();
      expect(renderFileName(template, context, { autostart: false })).not.toBe(
        renderFileName(template, context, { autostart: false }),
      );
    }
  });
});

describe('togglePlaceholder', () => {
  it('adds after a separator and removes again', () => {
    expect(togglePlaceholder('', 'year')).toBe('{year}');
    expect(togglePlaceholder('{uuid}', 'year')).toBe('{uuid}_{year}');
    expect(togglePlaceholder('{uuid}_{year}', 'uuid')).toBe('{year}');
    expect(togglePlaceholder('a{day}b', 'day')).toBe('ab');
  });

  it('properties: toggling a placeholder twice gives the name back', () => {
    const random = generator(4);
    for (let run = 0; run < RUNS; run++) {
      const placeholder: FileNamePlaceholder = random.pick(FILE_NAME_PLACEHOLDERS);
      const template = random.template(120).split(placeholderToken(placeholder)).join('');
      const added = togglePlaceholder(template, placeholder);
      expect(placeholdersIn(added)).toContain(placeholder);
      expect(togglePlaceholder(added, placeholder)).toBe(template);
    }
  });
});

describe('fileNameExample', () => {
  it('shows the example and the length counted against the limit', () => {
    expect(fileNameExample('live_{year}{month}{day}', FIXED, { autostart: false })).toEqual({
      example: 'live_20250304',
      length: 13,
      truncated: false,
    });
    const long = fileNameExample(`${'a'.repeat(240)}_{streamId}`, FIXED, { autostart: false });
    expect(long.length).toBe(277);
    expect(long.truncated).toBe(true);
    expect(long.example).toHaveLength(FILE_NAME_LIMIT);
    expect(fileNameExample('show', FIXED, { autostart: true }).example).toBe(
      'show_aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    );
  });
});
