import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { validationError } from '../errors.js';
import { dataResponse, errorResponses } from '../http/envelope.js';
import { canonicalTimeZone, DASHBOARD_LOCALES, setPreferences } from './preferences.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const PreferencesBody = Type.Object(
  {
    locale: Type.Optional(Nullable(Type.Union(DASHBOARD_LOCALES.map((locale) => Type.Literal(locale))))),
    time_zone: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  },
  { additionalProperties: false, minProperties: 1 },
);

const PreferencesSchema = Type.Object({
  locale: Type.Union([Type.String(), Type.Null()]),
  time_zone: Type.Union([Type.String(), Type.Null()]),
});

/**
 * The signed-in user's own preferences: the dashboard's language and time zone. Any role may set its own
 * (a viewer included: it changes nothing of the merchant's); null forgets a choice.
 */
export const preferenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.patch(
    '/me',
    {
      config: { anyRole: true, rateLimit: 'default' },
      schema: {
        body: PreferencesBody,
        response: { 200: dataResponse(PreferencesSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { locale, time_zone: zone } = request.body;
      const timeZone = zone ? canonicalTimeZone(zone) : zone;
      if (timeZone === null && zone) {
        throw validationError(`time_zone ${zone} is not a known IANA time zone (e.g. America/Sao_Paulo).`, [
          { field: 'time_zone', message: 'must be an IANA time zone name, such as America/Sao_Paulo' },
        ]);
      }
      const saved = await setPreferences(
        app.store.db,
        request.dashboardSession!.user.id,
        { locale, timeZone },
        app.clock(),
      );
      return { message: 'Preferences saved.', data: { locale: saved.locale, time_zone: saved.timeZone } };
    },
  );
};
