import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The bytes every stream's rewind window may take on a node's disk together (DVR_MAX_BYTES), and what they take. */
export class DiskBudget {
  used = 0;
  constructor(readonly maxBytes: number) {}
}

/**
 * One stream's rewind window on disk (`<data>/dvr/<input id>/seg-<msn>.m4s`): the complete segments the packager
 * no longer keeps in memory, written as they close and removed as they leave the window (or the node's budget).
 */
export class DvrStore {
  private readonly sizes = new Map<number, number>();
  private ready: Promise<unknown> | null = null;

  constructor(
    readonly dir: string,
    private readonly budget: DiskBudget,
  ) {}

  /** Writes a complete segment; resolves true once it is on disk (false when writing failed: it stays in memory). */
  async store(msn: number, data: Buffer): Promise<boolean> {
    this.ready ??= mkdir(this.dir, { recursive: true });
    try {
      await this.ready;
      await writeFile(this.path(msn), data);
    } catch {
      return false;
    }
    this.sizes.set(msn, data.length);
    this.budget.used += data.length;
    return true;
  }

  async read(msn: number): Promise<Buffer | null> {
    if (!this.sizes.has(msn)) return null;
    return readFile(this.path(msn)).catch(() => null);
  }

  remove(msn: number): void {
    const size = this.sizes.get(msn);
    if (size === undefined) return;
    this.sizes.delete(msn);
    this.budget.used -= size;
    void rm(this.path(msn), { force: true });
  }

  /** By how many bytes the node's rewind windows exceed their disk budget (0 or less: within it). */
  overBudgetBy(): number {
    return this.budget.used - this.budget.maxBytes;
  }

  sizeOf(msn: number): number {
    return this.sizes.get(msn) ?? 0;
  }

  /** Everything goes (the stream's packager is gone). */
  async clear(): Promise<void> {
    for (const msn of [...this.sizes.keys()]) this.remove(msn);
    await rm(this.dir, { recursive: true, force: true });
  }

  private path(msn: number): string {
    return join(this.dir, `seg-${msn}.m4s`);
  }
}
