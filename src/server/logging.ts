import type { FastifyBaseLogger } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.js';

/**
 * Where log records go (`stream`, else stdout). Production and tests keep JSON lines (for log shippers, and for
 * tests that read them); development (`npm start`) prints one readable line per record instead. Redaction happens
 * in pino, before either, so a readable line hides what a JSON line hides.
 */
export function logDestination(config: Config, stream?: DestinationStream): DestinationStream {
  if (config.env !== 'development') return stream ?? pino.destination(1);
  return pretty({
    destination: stream ?? 1,
    colorize: stream === undefined && Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    // "incoming request GET /v1/charges", "request completed → 201 in 12 ms"; other fields follow as JSON.
    messageFormat: (log, messageKey) => {
      // `path`: the request serializer leaves the query string (customer data) out.
      const request = log.req as { method?: string; path?: string } | undefined;
      const response = log.res as { statusCode?: number } | undefined;
      const time = typeof log.responseTime === 'number' ? ` in ${Math.round(log.responseTime)} ms` : '';
      return [
        log[messageKey],
        request && `${request.method} ${request.path}`,
        response && `→ ${response.statusCode}${time}`,
      ]
        .filter(Boolean)
        .join(' ');
    },
    ignore: 'pid,hostname,req,res,responseTime',
    singleLine: true,
    sync: true,
  });
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that binds the request id when it first writes a record. Fastify gives every request a
 * pino child bound to its id, which costs ~1.5 µs of every request (issue 14), though at levels above `info`
 * (the benchmarks' `silent`, an operator's `warn`) most requests write nothing. A record it writes carries the
 * request id all the same.
 */
class RequestLogger {
  private bound: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return (this.bound ?? this.parent).level;
  }

  set level(level: string) {
    this.bind().level = level;
  }

  fatal(...record: unknown[]): void {
    this.write('fatal', record);
  }
  error(...record: unknown[]): void {
    this.write('error', record);
  }
  warn(...record: unknown[]): void {
    this.write('warn', record);
  }
  info(...record: unknown[]): void {
    this.write('info', record);
  }
  debug(...record: unknown[]): void {
    this.write('debug', record);
  }
  trace(...record: unknown[]): void {
    this.write('trace', record);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.bind().child(bindings, options);
  }

  private write(level: Level, record: unknown[]): void {
    if (!(this.bound ?? this.parent).isLevelEnabled(level)) return;
    (this.bind()[level] as (...record: unknown[]) => void)(...record);
  }

  private bind(): Logger {
    this.bound ??= this.parent.child(this.bindings, this.options);
    return this.bound;
  }
}

/**
 * Fastify's `childLoggerFactory`: a bound child when the level logs every request (`info` and below, where
 * Fastify writes two records per request anyway), else a `RequestLogger` that binds only if it writes.
 */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  const parent = logger as Logger;
  if (options.level !== undefined || parent.isLevelEnabled('info')) return parent.child(bindings, options);
  return new RequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
