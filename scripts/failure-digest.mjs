// What failed in a suite's output, in a few lines: a whole run prints ~5,000 lines and a CI page shows its tail, so a
// failed run ends with this digest of each failed lane (`npm test`'s last lines), rather than leaving the failure
// somewhere above the other lanes' output.

/** The most lines a lane's digest takes, and a block of it. */
const MAX_LINES = 160;
const MAX_BLOCK_LINES = 50;

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are what it removes.
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Where a failure's story starts and ends in the runners' output: vitest's "Failed Tests" and "Unhandled Errors"
 * sections (up to its summary), playwright's numbered failures (up to the next one or its summary), and the
 * run's own "… failed" lines and thrown errors.
 */
const BLOCKS = [
  { start: /⎯{3,} (Failed Tests|Unhandled Errors?) \d+ ⎯{3,}/, end: /^\s*(Test Files|⎯{3,} (Failed Tests|Unhandled))/ },
  { start: /^ {2}\d+\) /, end: /^( {2}\d+\) |\s+\d+ (failed|flaky|passed|skipped|did not run)\b)/ },
];
const SINGLE_LINES = [/ failed \(\d+\)$/, /^\s+\d+ (failed|flaky)\b/, /^(Error|TypeError|RangeError): /];
/** Playwright's pointers to its trace files: not readable on a CI page. */
const NOISE = /^\s*(attachment #\d|Usage:|npx playwright show-trace|test-results\/.*\.(zip|md)$|─{10,}|Error Context:)/;

/** The failure blocks of `output` (ANSI removed), or its last lines when it has none (a crash, an install). */
export function failureDigest(output) {
  const lines = output.replace(ANSI, '').split('\n');
  const picked = [];
  for (let index = 0; index < lines.length && picked.length < MAX_LINES; index++) {
    const line = lines[index];
    const block = BLOCKS.find((each) => each.start.test(line));
    if (block) {
      const taken = [line];
      for (index++; index < lines.length && !block.end.test(lines[index]); index++)
        if (!NOISE.test(lines[index]) && taken.length < MAX_BLOCK_LINES) taken.push(lines[index]);
      index--;
      picked.push(...taken.filter((each, at) => each.trim() !== '' || taken[at - 1]?.trim() !== ''));
    } else if (SINGLE_LINES.some((pattern) => pattern.test(line))) picked.push(line);
  }
  const digest = picked.length > 0 ? picked : lines.filter((line) => line.trim() !== '').slice(-40);
  return digest.slice(0, MAX_LINES).join('\n');
}
