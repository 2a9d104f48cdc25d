import { writeFileSync } from 'node:fs';

/**
 * Something the run watches come back after each fault besides the pushes: a relay Relaying, a viewer getting media.
 */
export interface Watched {
  /** Its column in the report ("relay Relaying after"). */
  column: string;
  /** Waits until it is back after `since` (failing past its bound); answers how long that took from `since`. */
  back(since: number, what: string): Promise<number>;
  /** What it saw from `since`, told under the report when it came back slowly or not at all. */
  story?(since: number): Promise<string>;
}

/** A row of the report: a step of the schedule. */
export interface StepRow {
  fault: string;
  outage: string;
  apiBack: string;
  recovered: string;
  /** The watched ones' recoveries, in their order. */
  watched: string[];
  writes: string;
  notes: string;
}

/** The report (`title`, a row per step, `totals`), printed and written to `path`. */
export function writeReport(path: string, title: string, columns: string[], rows: StepRow[], totals: string[]): void {
  const header = ['fault', 'outage', 'API ready after', 'pushes back in Ingestion after', ...columns];
  header.push('writes during', 'notes');
  const text = [
    `# ${title}`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows
      .map((row) =>
        [row.fault, row.outage, row.apiBack, row.recovered, ...row.watched, row.writes, row.notes].join(' | '),
      )
      .map((line) => `| ${line} |`),
    '',
    ...totals,
  ].join('\n');
  process.stdout.write(`\n${text}\n`);
  writeFileSync(path, `${text}\n`);
}
