// Structured logs: one JSON object a line, with the same four leading fields everywhere (time,
// level, component, msg), so that a log pipeline or `jq` can follow one tenant across components.
// Everything else on the line goes through redact() first: no credential reaches a log.
import winston from 'winston';
import { redact, redactText } from './redact.js';
import type { Plain } from './redact.js';

export type Logger = winston.Logger;
type TransformableInfo = winston.Logform.TransformableInfo;

/** winston's npm levels, most severe first. */
export const LOG_LEVELS = Object.keys(winston.config.npm.levels);

export interface LoggerOptions {
  /** Where lines go; default stdout. */
  stream?: NodeJS.WritableStream;
  /** Source of the `time` field; default the wall clock. */
  clock?: () => Date;
}

/** The key winston's transports write out: the finished line (triple-beam's MESSAGE). */
const MESSAGE = Symbol.for('message');
const LEADING = ['time', 'level', 'component', 'msg'] as const;

/**
 * A logger for one component. Use `logger.child({ tenant: name })` for lines about one tenant, and
 * pass errors as a field (`logger.error('apply failed', { error })`) or as the message itself.
 */
export function createLogger(component: string, level: string, options: LoggerOptions = {}): Logger {
  if (!LOG_LEVELS.includes(level)) {
    throw new Error(`unknown log level "${level}": expected one of ${LOG_LEVELS.join(', ')}`);
  }
  const clock = options.clock ?? (() => new Date());
  return winston.createLogger({
    level,
    levels: winston.config.npm.levels,
    defaultMeta: { component },
    // Cheap work on the logger, for every call: an Error passed as the message must be unpacked
    // before winston copies it, since copying drops its non-enumerable message and stack.
    format: winston.format(unpackError)(),
    transports: [
      new winston.transports.Stream({
        stream: options.stream ?? process.stdout,
        // Costly work on the transport, which runs it only for lines at an enabled level.
        format: winston.format((info) => toLine(info, clock()))(),
      }),
    ],
  });
}

/**
 * Brings the ways winston hands over an Error to one shape, an `error` field. An Error as the
 * message arrives as the info itself or in `message`; through a child logger, or as the meta
 * argument (`logger.error('failed', err)`), it arrives already flattened into `stack` and `cause`.
 */
function unpackError(info: TransformableInfo): TransformableInfo {
  const error = info instanceof Error ? info : info.message instanceof Error ? info.message : undefined;
  if (error !== undefined) return { ...info, level: info.level, message: error.message, error };
  if (typeof info.stack !== 'string' || info.error !== undefined) return info;
  const { stack, cause, ...rest } = info;
  const message = typeof info.message === 'string' ? info.message : '';
  return { ...rest, level: info.level, message, error: { message, stack, cause } };
}

function toLine(info: TransformableInfo, now: Date): TransformableInfo {
  const { level, message, component, ...rest } = info;
  const record: Record<string, Plain> = {
    time: now.toISOString(),
    level,
    component: redact(component),
    msg: typeof message === 'string' ? redactText(message) : redact(message ?? ''),
  };
  const meta = redact(rest) as Record<string, Plain>;
  for (const key of LEADING) delete meta[key];
  info[MESSAGE] = JSON.stringify({ ...record, ...meta });
  return info;
}
