import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';
import { ApiError, type ErrorDetail, errorBody, GENERAL_ERRORS } from '../errors.js';
import { errorResponses } from './envelope.js';

function fieldOf(error: ErrorObject, part: string | undefined): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') path.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty));
  return path.join('.') || (part ?? 'body');
}

function messageOf(error: ErrorObject, field: string): string {
  switch (error.keyword) {
    case 'required':
      return `${field} is required.`;
    case 'additionalProperties':
      return `${field} is not a known field.`;
    case 'enum':
      return `${field} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}.`;
    case 'const':
      return `${field} must be ${JSON.stringify(error.params.allowedValue)}.`;
    case 'type':
      return `${field} must be of type ${error.params.type}.`;
    case 'format':
      return `${field} must be a valid ${error.params.format}.`;
    case 'pattern':
      return `${field} has an invalid format.`;
    default:
      return `${field} ${error.message ?? 'is invalid'}.`;
  }
}

/** One detail per offending field; unions (anyOf) repeat their branches' complaints, so keep the first. */
export function validationDetails(errors: ErrorObject[], part: string | undefined): ErrorDetail[] {
  const byField = new Map<string, ErrorDetail>();
  // A value that may have one of several formats (an IPv4 or IPv6 address) fails each: name them all.
  const formats = new Map<string, string[]>();
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const field = fieldOf(error, part);
    if (error.keyword === 'format')
      formats.set(field, [...(formats.get(field) ?? []), String(error.params.format)]);
    if (!byField.has(field)) byField.set(field, { field, message: messageOf(error, field) });
  }
  for (const [field, names] of formats) {
    const detail = byField.get(field);
    if (names.length > 1 && detail?.message === `${field} must be a valid ${names[0]}.`) {
      detail.message = `${field} must be a valid ${names.join(' or ')}.`;
    }
  }
  return [...byField.values()];
}

/** How many problems a validation answer lists; the message gives the total. */
export const MAX_ERROR_DETAILS = 20;

/** Fastify's own refusals, answered with our codes (their statuses come from the general catalogue). */
const FASTIFY_ERRORS: Record<string, { code: keyof typeof GENERAL_ERRORS; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request body is larger than 1 MiB.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'The request body must be JSON, sent with Content-Type: application/json.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'VALIDATION_ERROR',
    message: 'The request says it has a JSON body but the body is empty.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'VALIDATION_ERROR', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'VALIDATION_ERROR',
    message: 'The Content-Length header does not match the body.',
  },
};

/**
 * The wait a 503 asks for while the database is away: a crash-restarted PostgreSQL is back within seconds, and a
 * client that honours Retry-After retries about when it is. docs/decisions/database-outages.md
 */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** Every /v1 route may answer 503 while its database is away: its OpenAPI responses say so. */
function documentOutages(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const responses = route.schema?.response as Record<number, unknown> | undefined;
    if (!route.url.startsWith('/v1') || !responses || responses[503]) return;
    route.schema!.response = { ...responses, ...errorResponses(503) };
  });
}

export function registerErrorHandling(app: FastifyInstance): void {
  documentOutages(app);
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.details));
    }
    if (error.validation) {
      const details = validationDetails(error.validation as ErrorObject[], error.validationContext);
      const where = error.validationContext === 'body' ? 'request body' : error.validationContext;
      // A body of 80,000 unknown keys must not earn an answer of megabytes: the first few problems suffice.
      const shown = details.slice(0, MAX_ERROR_DETAILS);
      const message =
        details.length > shown.length
          ? `The ${where ?? 'request'} is invalid: ${details.length} problems, the first ${shown.length} in error.details.`
          : `The ${where ?? 'request'} is invalid: see error.details.`;
      return reply.status(400).send(errorBody('VALIDATION_ERROR', message, shown));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Routes may set a smaller bodyLimit than the server's 1 MiB (e.g. fraud signals, 32 KiB): name theirs.
      const limit = request.routeOptions.bodyLimit ?? 1024 * 1024;
      const size = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : `${limit / 1024} KiB`;
      return reply
        .status(413)
        .send(errorBody('PAYLOAD_TOO_LARGE', `The request body is larger than ${size}, this route's limit.`));
    }
    const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
    if (known)
      return reply.status(GENERAL_ERRORS[known.code].status).send(errorBody(known.code, known.message));
    if (error instanceof SyntaxError) {
      return reply.status(400).send(errorBody('VALIDATION_ERROR', 'The request body is not valid JSON.'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply
        .status(status)
        .send(errorBody(status === 400 ? 'VALIDATION_ERROR' : 'BAD_REQUEST', error.message));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable: answered 503');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send(
          errorBody(
            'SERVICE_UNAVAILABLE',
            'The service cannot reach its database right now, so the request may not have been completed. ' +
              'Retry it after Retry-After seconds, with the same Idempotency-Key.',
          ),
        );
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send(errorBody('INTERNAL_ERROR', 'Something went wrong on our side; the request was not completed.'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(errorBody('NOT_FOUND', `There is no route ${request.method} ${request.url.split('?')[0]}.`));
  });
}
