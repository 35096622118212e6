import { callerId, type RouteDeps } from '../context';
import { HttpError } from '../errors';
import { route, RouteDef } from '../route';
import { anonymizeStreamQuery } from './anonymize.schema';

/** `POST /api/anonymize/stream`: a CSV through a privacy policy, answered while it arrives. */
export function anonymizeRoutes({ services }: RouteDeps): RouteDef[] {
  return [
    route({
      method: 'post',
      path: '/api/anonymize/stream',
      tag: 'privacy',
      auth: 'user',
      scope: 'write:privacy',
      requestContentType: 'text/csv',
      summary:
        "Stream a CSV through a policy: the first 500 rows decide each column's PII type, then every row is answered transformed as it arrives (bounded memory, any size); X-Anonymize-Columns names what was found",
      query: anonymizeStreamQuery,
      responses: {
        200: { description: 'The transformed CSV, streamed', contentType: 'text/csv' },
        404: { description: 'Policy not found' },
        422: { description: 'The body holds no CSV header, or is not readable CSV' },
      },
      handler: async (ctx, { query }) => {
        if (!ctx.is('text/csv')) throw new HttpError(415, 'Expected text/csv');
        const { stream, columns } = await services.anonymizeStream.open(callerId(ctx), query.policy_id, ctx.req, { deepScan: query.deep_scan ?? false });
        ctx.set('X-Anonymize-Columns', JSON.stringify(columns.filter((c) => c.pii_type).map((c) => ({ column: encodeURIComponent(c.name), pii_type: c.pii_type }))));
        ctx.type = 'text/csv; charset=utf-8';
        ctx.attachment('anonymized.csv');
        ctx.body = stream;
        return undefined;
      },
    }),
  ];
}
