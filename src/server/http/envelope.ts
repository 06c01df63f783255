import { type TSchema, Type } from '@sinclair/typebox';

export const ErrorResponse = Type.Object(
  {
    message: Type.String(),
    error: Type.Object({
      code: Type.String({ description: 'UPPER_SNAKE machine-readable code' }),
      details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    }),
  },
  { description: 'Every error has this shape.' },
);

export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  totalPages: Type.Integer(),
});

export const dataResponse = <T extends TSchema>(data: T) => Type.Object({ message: Type.String(), data });

export const listResponse = <T extends TSchema>(item: T) =>
  Type.Object({ message: Type.String(), data: Type.Array(item), pagination: PaginationSchema });

/** The error responses a route documents, by status. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export const Id = Type.String({ format: 'uuid' });
