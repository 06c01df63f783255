import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import { type ErrorCatalogue, type ErrorCode, GENERAL_ERRORS } from '../errors.js';

const ErrorDetails = Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() })));

/** The error shape, its code one of `codes` (an `enum` the Node client's types carry), or any string without. */
function errorResponse(codes: readonly ErrorCode[]): TObject {
  const description = 'UPPER_SNAKE machine-readable code (docs/errors.md)';
  return Type.Object(
    {
      message: Type.String(),
      error: Type.Object({
        code: codes.length
          ? Type.Unsafe<ErrorCode>({ type: 'string', enum: [...codes], description })
          : Type.String({ description }),
        details: ErrorDetails,
      }),
    },
    { description: 'Every error has this shape.' },
  );
}

/** A code a route documents, at the status its catalogue gives it. */
export interface DocumentedCode {
  readonly code: ErrorCode;
  readonly status: number;
}

/** A route's own codes for `errorResponses`: `...codesOf(CHARGES_ERRORS, 'SUBMERCHANT_NOT_FOUND')` (none: all). */
export function codesOf<Catalogue extends ErrorCatalogue>(
  catalogue: Catalogue,
  ...codes: (keyof Catalogue & ErrorCode)[]
): DocumentedCode[] {
  const chosen = codes.length ? codes : (Object.keys(catalogue) as (keyof Catalogue & ErrorCode)[]);
  return chosen.map((code) => ({ code, status: catalogue[code].status }));
}

/** What a bare status stands for: the general code every route answers with at it. */
const IMPLIED_BY_STATUS: readonly (keyof typeof GENERAL_ERRORS)[] = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'INVALID_STATE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMIT_EXCEEDED',
  'SERVICE_UNAVAILABLE',
];

/**
 * The error responses a route documents, each status with the codes it may answer: a bare status brings its
 * general code (400 VALIDATION_ERROR, 409 INVALID_STATE, …; 422 none), `codesOf(…)` adds a catalogue's codes at
 * their statuses. test/server/http/openapi.test.ts fails on a documented status with no code.
 */
export function errorResponses(...items: (number | DocumentedCode)[]): Record<number, TObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  const add = (status: number, code?: ErrorCode) => {
    const codes = byStatus.get(status) ?? [];
    if (code && !codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  };
  for (const item of items) {
    if (typeof item === 'number') {
      add(
        item,
        IMPLIED_BY_STATUS.find((code) => GENERAL_ERRORS[code].status === item),
      );
    } else {
      add(item.status, item.code);
    }
  }
  return Object.fromEntries([...byStatus].map(([status, codes]) => [status, errorResponse(codes)]));
}

export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  totalPages: Type.Integer(),
});

export const dataResponse = <T extends TSchema>(data: T) => Type.Object({ message: Type.String(), data });

export const listResponse = <T extends TSchema>(item: T) =>
  Type.Object({ message: Type.String(), data: Type.Array(item), pagination: PaginationSchema });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export const Id = Type.String({ format: 'uuid' });
