import { join } from 'node:path';
import { ingestFile } from '../data/ingest';
import type { DatasetProfile, NumericProfile } from '../data/profile';
import { dataset, tempDir } from '../data/test-helpers';
import { executeOperations } from './execute';
import type { Operation, ProposedOperation, StepName } from './operations';
import { MAX_STEP_OPERATIONS, STEP_NAMES } from './operations';
import { gatherPlannerFacts } from './planner-facts';
import { MESSY_DUPLICATES, MESSY_ROWS, writeMessyCsv } from './planner-testdata';
import { PlannerFacts, planStep } from './planner';
import { dateShare, looksLikeDate, textMess } from './planner-values';
import { validateOperations } from './validate';

const ops = (plan: ProposedOperation[]): Operation[] => plan.map((p) => p.operation);
const reasonOf = (plan: ProposedOperation[], pred: (o: Operation) => boolean): string => plan.find((p) => pred(p.operation))?.reason ?? '';
const drops = (plan: ProposedOperation[]): string[] => ops(plan).flatMap((o) => (o.op === 'drop_columns' ? o.columns : []));

const tmp = tempDir('planner');
afterAll(() => tmp.cleanup());

/** Every step's plan passes the builder's own validation against the facts' columns, and fits in a step. */
function expectValid(plan: ProposedOperation[], facts: PlannerFacts): void {
  expect(() => validateOperations(ops(plan), facts.columns)).not.toThrow();
  expect(plan.length).toBeLessThanOrEqual(MAX_STEP_OPERATIONS);
  for (const p of plan) expect(p.reason.length).toBeGreaterThan(10);
}

describe('the deterministic planner on a messy table', () => {
  let raw: string;
  let facts: PlannerFacts;

  beforeAll(async () => {
    const csv = join(tmp.dir, 'messy.csv');
    writeMessyCsv(csv);
    raw = (await ingestFile(csv, join(tmp.dir, 'raw'))).parquet_path;
    facts = await gatherPlannerFacts(raw, 'churned');
  });

  it('reads the table as messy as it was written (the premise of the tests below)', () => {
    const dtype = (n: string): string | undefined => facts.columns.find((c) => c.name === n)?.dtype;
    expect(facts.rowCount).toBe(MESSY_ROWS + MESSY_DUPLICATES);
    expect(dtype('signup')).toBe('object');
    expect(['object', 'category']).toContain(dtype('income'));
    expect(dtype('plan')).toBe('category');
    expect(facts.profile.duplicate_rows).toBe(MESSY_DUPLICATES);
    expect(facts.leakage?.map((f) => f.column)).toContain('refund_issued');
  });

  it('understand: parses the dates, casts the numbers stored as text and tidies the messy category', () => {
    const plan = planStep('understand', facts);
    expect(ops(plan)).toEqual([
      { op: 'parse_dates', column: 'signup', on_error: 'null' },
      { op: 'cast', column: 'income', to: 'float64', on_error: 'null' },
      { op: 'normalize_text', columns: ['plan'], trim: true, collapse_whitespace: true, case: 'lower', empty_as_null: true },
    ]);
    expect(reasonOf(plan, (o) => o.op === 'parse_dates')).toMatch(
      /^"signup" holds dates as text \(e\.g\. "\d\d\/\d\d\/\d{4}"; 9 of its 10 most frequent values read as dates\): parse them as datetimes$/,
    );
    expect(reasonOf(plan, (o) => o.op === 'cast')).toMatch(/^"income" is text but \d+(\.\d)?% of its values are numbers: cast to float64, the rest \(e\.g\. "n\/a"\) becoming missing$/);
    expect(reasonOf(plan, (o) => o.op === 'normalize_text')).toContain('differ only in case or spaces');
    expectValid(plan, facts);
  });

  it('clean: deduplicates, drops the identifier, the constant, the leak and the free text (never the target), imputes and clips', () => {
    const plan = planStep('clean', facts);
    expect(ops(plan)[0]).toEqual({ op: 'deduplicate' });
    expect(plan[0].reason).toBe(`${MESSY_DUPLICATES} of ${MESSY_ROWS + MESSY_DUPLICATES} rows (4.8%) repeat an earlier row exactly: keep the first of each`);
    expect(drops(plan).sort()).toEqual(['country', 'customer_id', 'note', 'refund_issued']);
    expect(drops(plan)).not.toContain('churned');
    expect(reasonOf(plan, (o) => o.op === 'drop_columns' && o.columns[0] === 'customer_id')).toBe(
      '"customer_id" has 400 distinct values in 420 rows (20 of them duplicate rows; running from 1 to 400): an identifier, not a feature',
    );
    expect(reasonOf(plan, (o) => o.op === 'drop_columns' && o.columns[0] === 'country')).toBe('"country" holds a single value ("US") in every row: it tells no rows apart');
    expect(reasonOf(plan, (o) => o.op === 'drop_columns' && o.columns[0] === 'note')).toBe(
      '"note" has 400 distinct values in 420 rows (20 of them duplicate rows): an identifier or free text, which a tabular model cannot use',
    );
    expect(reasonOf(plan, (o) => o.op === 'drop_columns' && o.columns[0] === 'refund_issued')).toMatch(/^"refund_issued" alone predicts "churned" almost perfectly/);
    const age = ops(plan).find((o) => o.op === 'impute' && o.column === 'age');
    expect(age).toEqual({ op: 'impute', column: 'age', strategy: 'mean', indicator: true });
    expect(reasonOf(plan, (o) => o.op === 'impute' && o.column === 'age')).toMatch(
      /^"age" is missing in \d+ of 420 rows \(1\d(\.\d)?%\): fill with its mean \([\d.]+\) as it is not skewed \(skewness -?[\d.]+\), and mark the gaps in "age_missing" \(over 5% missing\)$/,
    );
    // The log-normal spend: skewed, so the median, and few enough gaps (3%) for no indicator.
    expect(ops(plan).find((o) => o.op === 'impute' && o.column === 'spend')).toEqual({ op: 'impute', column: 'spend', strategy: 'median', indicator: false });
    expect(ops(plan).find((o) => o.op === 'handle_outliers')).toEqual({ op: 'handle_outliers', column: 'spend', method: 'iqr', action: 'clip' });
    // Outliers are clipped before the gaps are filled; nothing touches the target.
    const kinds = ops(plan).map((o) => o.op);
    expect(kinds.indexOf('handle_outliers')).toBeLessThan(kinds.indexOf('impute'));
    expect(ops(plan).some((o) => 'column' in o && o.column === 'churned')).toBe(false);
    expectValid(plan, facts);
  });

  it('features plans nothing on the raw table (no datetimes yet); validate never plans', () => {
    expect(planStep('validate', facts)).toEqual([]);
    expect(planStep('features', facts)).toEqual([]);
  });

  it('plans each step against the columns the steps before it left, and the whole recipe runs', async () => {
    let input = raw;
    const recipe: Operation[] = [];
    const plans = {} as Record<StepName, ProposedOperation[]>;
    for (const step of STEP_NAMES) {
      const stepFacts = await gatherPlannerFacts(input, 'churned');
      plans[step] = planStep(step, stepFacts);
      expectValid(plans[step], stepFacts);
      if (plans[step].length === 0) continue;
      const output = join(tmp.dir, `${step}.parquet`);
      await executeOperations({ input, output, operations: ops(plans[step]) });
      recipe.push(...ops(plans[step]));
      input = output;
    }
    // Clean now sees a numeric income (from understand) and imputes it; transform encodes the tidied plan.
    expect(ops(plans.clean)).toContainEqual(expect.objectContaining({ op: 'impute', column: 'income' }));
    expect(ops(plans.transform)).toEqual([{ op: 'one_hot_encode', column: 'plan', max_categories: 3, keep_original: false }]);
    expect(reasonOf(plans.transform, () => true)).toMatch(/^"plan" has 3 categories \("(basic|premium|pro)", "(basic|premium|pro)", "(basic|premium|pro)"\): one 0\/1 column each/);
    // Features reads the parsed signup dates: year, month and weekday, then the raw column goes.
    expect(ops(plans.features)).toEqual([
      { op: 'derive', name: 'signup_year', expression: 'year("signup")' },
      { op: 'derive', name: 'signup_month', expression: 'month("signup")' },
      { op: 'derive', name: 'signup_weekday', expression: 'weekday("signup")' },
      { op: 'drop_columns', columns: ['signup'] },
    ]);
    expect(plans.features[0].reason).toMatch(/^"signup" spans 2019-\d\d-\d\d to 2022-\d\d-\d\d: models read a date through its parts/);
    const final = await gatherPlannerFacts(input, 'churned');
    const names = final.columns.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['churned', 'age', 'age_missing', 'income', 'spend', 'plan_basic', 'signup_year']));
    expect(names).not.toEqual(expect.arrayContaining(['customer_id']));
    for (const gone of ['customer_id', 'country', 'refund_issued', 'note', 'signup', 'plan']) expect(names).not.toContain(gone);
    expect(final.rowCount).toBe(MESSY_ROWS);
    // Only the target may still be missing: the clean step filled every feature's gaps.
    for (const c of final.columns)
      if (c.name !== 'churned' && c.name !== 'signup_year' && c.name !== 'signup_month' && c.name !== 'signup_weekday') expect(final.profile.columns[c.name].missing).toBe(0);
    // A second clean pass over the cleaned table finds no duplicates and no column to drop any more.
    expect(ops(planStep('clean', final)).filter((o) => o.op === 'deduplicate' || o.op === 'drop_columns')).toEqual([]);
    expect(recipe.length).toBeGreaterThan(10);
  });

  it('is deterministic: the same facts (also after a JSON round trip) give the same plan', () => {
    const copy = JSON.parse(JSON.stringify(facts)) as PlannerFacts;
    for (const step of STEP_NAMES) expect(planStep(step, copy)).toEqual(planStep(step, facts));
  });

  it('without a target drops nothing as a leak and filters no rows', async () => {
    const noTarget = await gatherPlannerFacts(raw, null);
    const plan = planStep('clean', noTarget);
    expect(drops(plan)).not.toContain('refund_issued');
    expect(ops(plan).some((o) => o.op === 'filter_rows')).toBe(false);
    // Without a target the target column is an ordinary one: nothing special, but still valid.
    expectValid(plan, noTarget);
  });
});

describe('the deterministic planner on shared datasets', () => {
  it('titanic: drops alive (the target under another name), keeps survived, encodes the categories', async () => {
    const path = (await ingestFile(dataset('titanic'), join(tmp.dir, 'titanic'))).parquet_path;
    const facts = await gatherPlannerFacts(path, 'survived');
    const clean = planStep('clean', facts);
    expect(drops(clean)).toContain('alive');
    expect(drops(clean)).not.toContain('survived');
    expect(ops(clean)).toContainEqual({ op: 'impute', column: 'age', strategy: 'mean', indicator: true });
    expect(ops(clean)).toContainEqual(expect.objectContaining({ op: 'impute', column: 'deck', strategy: 'mode', indicator: true }));
    expect(ops(clean)[0]).toEqual({ op: 'deduplicate' });
    expectValid(clean, facts);
    const transform = planStep('transform', facts);
    expect(ops(transform).map((o) => (o.op === 'one_hot_encode' ? o.column : o.op))).toEqual(expect.arrayContaining(['sex', 'embarked', 'class', 'who']));
    expectValid(transform, facts);
  });

  it('taxis: derives month and weekday from the pickup and dropoff times (one year only: no year column)', async () => {
    const path = (await ingestFile(dataset('taxis'), join(tmp.dir, 'taxis'))).parquet_path;
    const facts = await gatherPlannerFacts(path, 'total');
    const plan = planStep('features', facts);
    expect(ops(plan)).toEqual([
      { op: 'derive', name: 'pickup_month', expression: 'month("pickup")' },
      { op: 'derive', name: 'pickup_weekday', expression: 'weekday("pickup")' },
      { op: 'derive', name: 'dropoff_month', expression: 'month("dropoff")' },
      { op: 'derive', name: 'dropoff_weekday', expression: 'weekday("dropoff")' },
      { op: 'drop_columns', columns: ['pickup', 'dropoff'] },
    ]);
    expectValid(plan, facts);
  });
});

describe('what the planner reads in top values', () => {
  it('takes the forms parse_dates reads as dates, and nothing else', () => {
    for (const v of ['2021-03-15', '2021-03-15 13:45:00', '2021/3/5', '15/03/2021', '3/15/2021 13:45', '15.03.2021', '15-03-2021', '15 Mar 2021', 'Mar 15, 2021']) {
      expect([v, looksLikeDate(v)]).toEqual([v, true]);
    }
    for (const v of ['2021', '15/03/21', 'March', '12.5', 'id-2021-03', '3-15-21', 'not a date']) expect([v, looksLikeDate(v)]).toEqual([v, false]);
    // A frequent placeholder does not hide a column of dates each seen once.
    expect(
      dateShare([
        ['unknown', 50],
        ['01/02/2020', 1],
        ['02/02/2020', 1],
        ['03/02/2020', 1],
        ['04/02/2020', 1],
      ]).share,
    ).toBe(0.8);
  });

  it('tells spellings that differ in case from those that differ in spaces, and tidy values from both', () => {
    expect(
      textMess([
        ['Male', 5],
        ['male', 3],
        ['Female', 4],
      ]),
    ).toEqual({ caseVariants: true, spaceVariants: false, examples: ['Male', 'male'] });
    expect(
      textMess([
        ['red', 5],
        ['red ', 3],
        ['blue', 4],
      ]),
    ).toEqual({ caseVariants: false, spaceVariants: true, examples: ['red', 'red '] });
    expect(
      textMess([
        ['red', 5],
        ['Blue', 3],
        ['GREEN', 4],
      ]),
    ).toBeNull();
  });
});

describe('the deterministic planner on a wide table', () => {
  /** A profile of `width` float columns, each missing in 10% of 1,000 rows (the planner reads only the facts). */
  function wideFacts(width: number): PlannerFacts {
    const columns = Array.from({ length: width }, (_, i) => ({ name: `x${i}`, dtype: 'float64' as const }));
    const numeric = (i: number): NumericProfile => ({
      type: 'numeric',
      dtype: 'float64',
      unique: 900,
      missing: 100,
      missing_percent: 10,
      min: 0,
      max: 1,
      mean: 0.5,
      std: 0.29,
      percentiles: { p25: 0.25, p50: 0.5 + i * 1e-6, p75: 0.75 },
      skewness: 0,
      kurtosis: -1.2,
      iqr: 0.5,
      outlier_count: 0,
      histogram: { counts: [], bin_edges: [] },
    });
    const profile: DatasetProfile = {
      columns: Object.fromEntries(columns.map((c, i) => [c.name, numeric(i)])),
      row_count: 1000,
      duplicate_rows: 0,
      memory_usage: 0,
      correlations: {},
      correlations_omitted: [],
      percentiles_approximate: false,
    };
    return { columns, profile, quality: { overall_score: 50, checks: [], target: null, sample_rows: null }, target: null, rowCount: 1000 };
  }

  it('proposes at most a step of operations and says what it left for later', () => {
    const plan = planStep('clean', wideFacts(2000));
    expect(plan).toHaveLength(MAX_STEP_OPERATIONS);
    expect(plan[MAX_STEP_OPERATIONS - 1].reason).toContain('1,900 more operations of this kind are left for a later proposal');
  });

  it('without leakage findings takes a near-perfect correlation with a numeric target as a leak', () => {
    const facts = wideFacts(3);
    facts.target = 'x0';
    facts.profile.correlations = { x0: { x0: 1, x1: 0.995, x2: 0.4 }, x1: { x0: 0.995, x1: 1, x2: 0.4 }, x2: { x0: 0.4, x1: 0.4, x2: 1 } };
    const plan = planStep('clean', facts);
    expect(drops(plan)).toEqual(['x1']);
    expect(plan.find((p) => p.operation.op === 'drop_columns')?.reason).toBe('"x1" correlates with "x0" at r = 0.995: most likely a leak of the target, recorded after the outcome');
    // Rows without the target are filtered first; the target itself is never imputed.
    expect(ops(plan)[0]).toEqual({ op: 'filter_rows', condition: '"x0" is not null' });
    expect(ops(plan).some((o) => o.op === 'impute' && o.column === 'x0')).toBe(false);
    expectValid(plan, facts);
  });

  it('quotes column names in expressions and reasons, whatever they hold', () => {
    const facts = wideFacts(1);
    const name = 'when "signed" up';
    facts.columns = [...facts.columns, { name, dtype: 'datetime64' }];
    facts.profile.columns[name] = { type: 'categorical', dtype: 'datetime64', unique: 500, missing: 0, missing_percent: 0, top_values: {}, min: '2020-01-01T00:00:00', max: '2021-06-30T00:00:00' };
    const plan = planStep('features', facts);
    expect(ops(plan)[0]).toEqual({ op: 'derive', name: 'when "signed" up_year', expression: 'year("when ""signed"" up")' });
    expect(plan[0].reason).toMatch(/^"when \\"signed\\" up" spans 2020-01-01 to 2021-06-30/);
    expectValid(plan, facts);
  });
});
