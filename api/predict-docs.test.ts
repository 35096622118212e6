import type { PredictDocsSource } from '../services/deployments';
import { predictDocs } from './predict-docs';
import { MAX_INLINE_ROWS } from './routes/deployment-predict.schema';

const source = {
  deployment: { id: 'd1', name: 'churn' },
  model: { id: 'm1', name: 'gbdt', algo: 'gbdt' },
  columns: [
    { name: 'age', dtype: 'int64' },
    { name: 'plan', dtype: 'object' },
  ],
  example: { row: { age: 40, plan: 'basic' }, source: 'training_statistics' },
} as unknown as PredictDocsSource;

describe('predictDocs', () => {
  const docs = predictDocs(source) as {
    paths: Record<string, { post: { requestBody: { content: Record<string, { schema: Record<string, unknown>; example: unknown }> } } }>;
    components: { schemas: { InputRow: unknown } };
  };
  const body = docs.paths['/api/mlops/deployments/d1/predict'].post.requestBody.content['application/json'];

  it("states the predict body as the route's zod schema does, each row pointing at the model's InputRow", () => {
    const row = { $ref: '#/components/schemas/InputRow' };
    expect(body.schema).toMatchObject({
      type: 'object',
      required: ['inputs'],
      properties: {
        inputs: { anyOf: [row, { type: 'array', items: row, minItems: 1, maxItems: MAX_INLINE_ROWS }] },
        options: {
          type: 'object',
          default: { include_contributions: false },
          properties: {
            include_contributions: { type: 'boolean', default: false },
            store_payload: { type: 'boolean' },
            privacy_policy_id: { type: 'string', minLength: 1, maxLength: 200 },
            anonymize_logs: { type: 'boolean' },
            anonymize_response: { type: 'boolean' },
          },
        },
      },
    });
    expect(docs.components.schemas.InputRow).toEqual({
      type: 'object',
      properties: { age: { type: ['integer', 'null'] }, plan: { type: ['string', 'null'] } },
      additionalProperties: true,
    });
    expect(body.example).toEqual({ inputs: { age: 40, plan: 'basic' }, options: { include_contributions: false } });
  });
});
