import { useEffect, useRef, useState } from 'preact/hooks';
import { get, post, qs, type GetBody } from '../api';
import { FeatureFields, textRow, typedRow, type FeatureColumn } from '../features';
import { ErrorBox, fmtNum, Loading, Section, Table, useAction, useAsync } from '../ui';

type Schema = GetBody<'/api/studio/deployments/{deployment_id}/schema'>;
type Sample = GetBody<'/api/dataset-versions/{dataset_version_id}/sample'>;

/** One row's answer of `POST …/predict` (the spec's deployment predict response). */
interface Prediction {
  prediction: string;
  probabilities?: Record<string, number> | null;
  probability?: number | null;
  decision_threshold?: number | null;
  positive_class?: string | null;
  predicted_positive?: boolean | null;
}

interface PredictAnswer {
  predictions: Prediction[];
  warnings?: { type: string; columns: string[]; message: string }[];
}

const columnsOf = (schema: Record<string, string>): FeatureColumn[] => Object.entries(schema).map(([name, dtype]) => ({ name, dtype }));

/** How many training rows "fill with a sample row" cycles through (one request, then each click takes the next). */
const SAMPLE_ROWS = 25;

/**
 * A test prediction from the browser: one field per feature of the deployment's input schema (its dtype in the
 * label), started from the typical values the API gives (`…/schema` example_input), refillable from rows of the
 * training data. The answer is shown as a sentence and a table of class probabilities; a refused request shows
 * the API's error detail.
 */
export function PredictForm({ deploymentId }: { deploymentId: string }) {
  const schema = useAsync(() => get<Schema>(`/api/studio/deployments/${deploymentId}/schema`), [deploymentId]);
  const columns = schema.data ? columnsOf(schema.data.feature_schema) : [];
  const [values, setValues] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<PredictAnswer | null>(null);
  const predict = useAction();
  const fill = useAction();
  const sample = useRef<{ rows: Record<string, unknown>[]; next: number } | null>(null);
  useEffect(() => {
    if (schema.data) setValues(textRow(columnsOf(schema.data.feature_schema), schema.data.example_input));
  }, [schema.data]);

  const fillSampleRow = () =>
    void fill.run(async () => {
      const versionId = schema.data?.dataset_version_id;
      if (!versionId) {
        // The training data is gone: the schema's typical values are all there is.
        setValues(textRow(columns, schema.data?.example_input ?? {}));
        return;
      }
      if (!sample.current) {
        const s = await get<Sample>(`/api/dataset-versions/${versionId}/sample${qs({ n: SAMPLE_ROWS, seed: 1 })}`);
        sample.current = { rows: s.rows, next: 0 };
      }
      const { rows } = sample.current;
      if (rows.length === 0) return;
      setValues(textRow(columns, rows[sample.current.next++ % rows.length]));
    });

  if (schema.error) return <ErrorBox error={schema.error} />;
  if (!schema.data) return <Loading />;
  return (
    <Section title="Test prediction">
      <form
        class="stack"
        aria-label="Test prediction"
        onSubmit={(e) => {
          e.preventDefault();
          setAnswer(null);
          void predict.run(async () => setAnswer(await post<PredictAnswer>(`/api/mlops/deployments/${deploymentId}/predict`, { inputs: typedRow(columns, values) })));
        }}
      >
        <p class="muted">
          {schema.data.example_source === 'unavailable'
            ? 'The training data is gone: fill in the features.'
            : 'Started from typical values of the training data; change them or fill in a training row.'}
          {schema.data.target_column ? ` The target ${schema.data.target_column} is not an input.` : ''} An empty field is sent as a missing value.
        </p>
        <FeatureFields schema={columns} values={values} onChange={setValues} />
        <div class="row wrap">
          <button type="submit" disabled={predict.busy}>
            Predict
          </button>
          <button type="button" class="secondary" disabled={fill.busy} onClick={fillSampleRow}>
            Fill with a sample row
          </button>
        </div>
        <ErrorBox error={fill.error} />
      </form>
      {predict.error && (
        <div class="error" role="alert">
          <strong>The deployment refused the request:</strong> {predict.error}
        </div>
      )}
      {answer && <PredictionView answer={answer} />}
    </Section>
  );
}

/** "Predicted pos (P(pos) = 0.83, decision threshold 0.41)" and the probability of each class. */
function PredictionView({ answer }: { answer: PredictAnswer }) {
  const p = answer.predictions[0];
  if (!p) return null;
  const probabilities = Object.entries(p.probabilities ?? {}).sort((a, b) => b[1] - a[1]);
  return (
    <div role="status" aria-label="Prediction">
      <p>
        Predicted <strong class="prediction">{p.prediction}</strong>
        {typeof p.probability === 'number' && p.positive_class && (
          <>
            {' '}
            (P({p.positive_class}) = {fmtNum(p.probability, 3)}
            {typeof p.decision_threshold === 'number' ? `, decision threshold ${fmtNum(p.decision_threshold, 3)}` : ''})
          </>
        )}
        .
      </p>
      {probabilities.length > 0 && (
        <Table
          caption="Class probabilities"
          rows={probabilities}
          columns={[
            { head: 'Class', cell: ([c]) => c },
            { head: 'Probability', cell: ([, v]) => fmtNum(v, 3), num: true },
          ]}
        />
      )}
      {answer.warnings?.map((w) => (
        <p key={w.type} class="muted">
          {w.message}
        </p>
      ))}
    </div>
  );
}
