// Progress of a running purge, written to status.purge at most once per interval and one write at a
// time: a purge deletes thousands of items a second, and each count must not cost an API write.
// A failed progress write is only logged; the next one (or the final report) carries the count.
import type { Logger } from '../runtime/logger.js';
import type { TenantStatusWriter } from '../runtime/kube/tenant-status-writer.js';
import type { PurgerStatus } from './status.js';

const PROGRESS_INTERVAL_MS = 1_000;

export class ProgressReporter {
  private latest: PurgerStatus | undefined;
  private writing: Promise<void> | undefined;
  private lastWrite = 0;

  constructor(
    private readonly name: string,
    private readonly writer: TenantStatusWriter<PurgerStatus>,
    private readonly logger: Logger,
  ) {}

  update(status: PurgerStatus): void {
    this.latest = status;
    if (this.writing === undefined && Date.now() - this.lastWrite >= PROGRESS_INTERVAL_MS) this.writeLatest();
  }

  /** Waits for a write in flight, so the final report lands after it. */
  async settle(): Promise<void> {
    await this.writing;
  }

  private writeLatest(): void {
    const status = this.latest!;
    this.lastWrite = Date.now();
    this.writing = this.writer
      .apply(this.name, status)
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.warn('could not write purge progress; the next write carries it', {
          tenant: this.name,
          error: String(error),
        });
      })
      .finally(() => (this.writing = undefined));
  }
}
