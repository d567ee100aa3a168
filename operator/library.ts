// The operator process's entry through @dot-i/k8s-operator, as the stack names it: the library's
// start() runs init(), which starts the watches the operator's wiring made (watches.ts), and its
// stop() is where they stop; what it logs goes to landlord's logger. Its own watches are not used:
// as shipped they list without a resourceVersion, take no label selector and exit the process on
// any watch error. See docs/adr/0007-operator-library-role.md.
import operatorModule from '@dot-i/k8s-operator';
import type { Logger } from '../runtime/logger.js';

/** What the library starts and stops. */
export interface Startable {
  start(): Promise<void>;
  stop(): void;
}

// The library is CommonJS with an `exports.default` class; from ESM its default import is the module object.
const Operator = operatorModule.default;

export class OperatorProcess extends Operator {
  constructor(
    private readonly watches: Startable,
    log: Logger,
  ) {
    super({
      debug: (m: string) => log.debug(m),
      info: (m: string) => log.info(m),
      warn: (m: string) => log.warn(m),
      error: (m: string) => log.error(m),
    });
  }

  /** Resolves once every watch has listed: readiness waits for it. */
  protected init(): Promise<void> {
    return this.watches.start();
  }

  override stop(): void {
    super.stop();
    this.watches.stop();
  }
}
