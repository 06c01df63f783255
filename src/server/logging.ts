import pino, { type DestinationStream } from 'pino';
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
