import { z } from 'zod';
import type { PredictDocsSource } from '../services/deployments';
import { deploymentPredictBody, predictInputRow } from './routes/deployment-predict.schema';

type Json = Record<string, unknown>;

const INPUT_ROW_REF = '#/components/schemas/InputRow';

/**
 * The predict body's JSON Schema, generated from the zod schema the route validates with, so the fragment
 * cannot drift from what the route accepts. Each input row points at the deployment's `InputRow`, which
 * states the model's columns.
 */
function predictBodySchema(): Json {
  const json = z.toJSONSchema(deploymentPredictBody, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: ({ zodSchema, jsonSchema }) => {
      if ((zodSchema as unknown) !== predictInputRow) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Json)[key];
      (jsonSchema as Json).$ref = INPUT_ROW_REF;
    },
  }) as Json;
  delete json.$schema;
  return json;
}

/** JSON Schema of an input column, by its dataset dtype. */
function jsonSchemaOf(dtype: string): Json {
  if (dtype === 'int64') return { type: ['integer', 'null'] };
  if (dtype === 'float64') return { type: ['number', 'null'] };
  if (dtype === 'bool') return { type: ['boolean', 'null'] };
  if (dtype === 'datetime64') return { type: ['string', 'null'], format: 'date-time' };
  return { type: ['string', 'null'] };
}

/** An OpenAPI 3.1 fragment for a deployment's predict request: the model's input schema and an example row. */
export function predictDocs({ deployment, model, columns, example }: PredictDocsSource): Json {
  const properties = Object.fromEntries(columns.map((c) => [c.name, jsonSchemaOf(c.dtype)]));
  const row = { type: 'object', properties, additionalProperties: true };
  const path = `/api/mlops/deployments/${deployment.id}/predict`;
  return {
    openapi: '3.1.0',
    info: { title: `Deployment ${deployment.name}`, version: String(model.id) },
    paths: {
      [path]: {
        post: {
          summary: `Predict with ${model.name} (${model.algo})`,
          'x-required-scope': 'predict:deployments',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: predictBodySchema(), example: { inputs: example.row, options: { include_contributions: false } } } },
          },
          responses: {
            200: { description: '{predictions, decision_policy, contributions?}' },
            404: { description: 'Deployment not found or inactive' },
            422: { description: 'An input does not match the schema' },
          },
        },
      },
    },
    components: { schemas: { InputRow: row } },
    'x-example-source': example.source,
  };
}
