import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

const common: Options = {
  allErrors: true,
  strict: false,
  useDefaults: true,
  removeAdditional: false,
  // TypeBox marks its schemas with these keywords; ajv must accept them.
  keywords: ['kind', 'modifier'],
};

/**
 * Query strings and path parameters arrive as text and are coerced to the schema's types; JSON bodies are
 * validated as sent, so `"amount": "100"` is an error rather than silently becoming 100.
 */
export function registerValidation(app: FastifyInstance): void {
  const coercing = addFormats.default(new Ajv.default({ ...common, coerceTypes: 'array' }));
  const strict = addFormats.default(new Ajv.default({ ...common, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema);
  });
}
