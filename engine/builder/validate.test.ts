import { ColumnInfo } from '../data/dtypes';
import { OperationError } from './errors';
import { Operation, OperationInput, operationSchema } from './operations';
import { validateOperations } from './validate';

const columns: ColumnInfo[] = [
  { name: 'id', dtype: 'int64' },
  { name: 'age', dtype: 'float64' },
  { name: 'city', dtype: 'category' },
  { name: 'joined', dtype: 'object' },
  { name: 'active', dtype: 'bool' },
];
const RIGHT = '6f1c1f8e-6a43-4a38-9a57-2d1f2f7f1a11';
const joins = {
  [RIGHT]: [
    { name: 'id', dtype: 'int64' },
    { name: 'age', dtype: 'float64' },
    { name: 'score', dtype: 'float64' },
  ] as ColumnInfo[],
};

const ops = (...list: OperationInput[]): Operation[] => list.map((o) => operationSchema.parse(o));

function errorOf(list: OperationInput[]): OperationError {
  try {
    validateOperations(ops(...list), columns, joins);
  } catch (err) {
    expect(err).toBeInstanceOf(OperationError);
    return err as OperationError;
  }
  throw new Error('validated');
}

describe('validateOperations', () => {
  test('returns the schema each operation leaves, in order', () => {
    const after = validateOperations(
      ops(
        { op: 'rename_column', column: 'active', to: 'is active' },
        { op: 'impute', column: 'age', strategy: 'median', indicator: true },
        { op: 'parse_dates', column: 'joined' },
        { op: 'derive', name: 'joined_year', expression: 'year(joined)' },
        { op: 'split_column', column: 'city', separator: '-', into: ['town', 'district'] },
        { op: 'bin', column: 'age', into: 'age_bin' },
        { op: 'join', dataset_version_id: RIGHT, on: [{ left: 'id', right: 'id' }] },
        { op: 'drop_columns', columns: ['is active'] },
      ),
      columns,
      joins,
    );
    expect(after).toEqual([
      { name: 'id', dtype: 'int64' },
      { name: 'age', dtype: 'float64' },
      { name: 'joined', dtype: 'datetime64' },
      { name: 'age_missing', dtype: 'int64' },
      { name: 'joined_year', dtype: 'int64' },
      { name: 'town', dtype: 'object' },
      { name: 'district', dtype: 'object' },
      { name: 'age_bin', dtype: 'int64' },
      { name: 'age_right', dtype: 'float64' },
      { name: 'score', dtype: 'float64' },
    ]);
  });

  test('an unknown column is named with the operation, counted from 1', () => {
    const err = errorOf([{ op: 'drop_columns', columns: ['id'] }, { op: 'deduplicate' }, { op: 'cast', column: 'agee', to: 'int64' }]);
    expect(err.message).toBe('Operation 3 (cast): no column named "agee"');
    expect(err.index).toBe(2);
  });

  test('a column dropped by an earlier operation is unknown to later ones', () => {
    expect(
      errorOf([
        { op: 'drop_columns', columns: ['age'] },
        { op: 'impute', column: 'age', strategy: 'mean' },
      ]).message,
    ).toBe('Operation 2 (impute): no column named "age"');
  });

  test.each<[OperationInput[], RegExp]>([
    [[{ op: 'impute', column: 'city', strategy: 'mean' }], /column "city" is category, not numeric/],
    [[{ op: 'impute', column: 'age', strategy: 'constant' }], /needs a value/],
    [[{ op: 'impute', column: 'age', strategy: 'constant', value: 'x' }], /must be a number/],
    [
      [
        { op: 'impute', column: 'age', strategy: 'mean', indicator: true },
        { op: 'impute', column: 'age', strategy: 'mean', indicator: true },
      ],
      /Operation 2 .*"age_missing" exists already/,
    ],
    [[{ op: 'handle_outliers', column: 'city' }], /not numeric/],
    [[{ op: 'handle_outliers', column: 'age', method: 'percentile', lower_percentile: 90, upper_percentile: 10 }], /must be below/],
    [[{ op: 'filter_rows', condition: 'age + 1' }], /must be true or false for each row, but it is a number/],
    [[{ op: 'filter_rows', condition: "age > 'x'" }], /Operation 1 \(filter_rows\): the condition "age > 'x'": cannot compare a number with a text at character 5/],
    [[{ op: 'derive', name: 'x', expression: 'agee * 2' }], /no column named "agee"/],
    [[{ op: 'rename_column', column: 'age', to: 'city' }], /"city" exists already/],
    [[{ op: 'drop_columns', columns: ['id', 'age', 'city', 'joined', 'active'] }], /would drop every column/],
    [[{ op: 'cast', column: 'age', to: 'datetime64' }], /cannot be cast to datetime64 \(parse_dates/],
    [[{ op: 'parse_dates', column: 'age' }], /is float64, not text/],
    [[{ op: 'bin', column: 'age', strategy: 'edges' }], /needs edges/],
    [[{ op: 'bin', column: 'age', edges: [3, 2] }], /edges must increase/],
    [[{ op: 'ordinal_encode', column: 'city', order: ['a', 'a'] }], /lists a value twice/],
    [[{ op: 'split_column', column: 'city', separator: ',', into: ['id', 'b'] }], /"id" exists already/],
    [[{ op: 'normalize_text', columns: ['age'] }], /not text/],
    [[{ op: 'join', dataset_version_id: '00000000-0000-4000-8000-000000000000', on: [{ left: 'id', right: 'id' }] }], /is not available to join/],
    [[{ op: 'join', dataset_version_id: RIGHT, on: [{ left: 'city', right: 'id' }] }], /key "city" is category but "id" of the joined version is int64/],
    [[{ op: 'join', dataset_version_id: RIGHT, on: [{ left: 'id', right: 'idd' }] }], /joined version has no column named "idd"/],
  ])('refuses %j', (list, message) => {
    expect(errorOf(list).message).toMatch(message);
  });

  test('hostile and unicode names are names like any other', () => {
    const hostile: ColumnInfo[] = [
      { name: '"; DROP TABLE x; --', dtype: 'float64' },
      { name: 'größe m²', dtype: 'float64' },
    ];
    const after = validateOperations(ops({ op: 'derive', name: '__proto__', expression: '`"; DROP TABLE x; --` * `größe m²`' }, { op: 'rename_column', column: 'größe m²', to: "it's" }), hostile);
    expect(after.map((c) => c.name)).toEqual(['"; DROP TABLE x; --', "it's", '__proto__']);
  });

  test('columns one-hot encoding will make may be named by later operations', () => {
    const after = validateOperations(ops({ op: 'one_hot_encode', column: 'city' }, { op: 'drop_columns', columns: ['city_other'] }), columns);
    expect(after.map((c) => c.name)).toEqual(['id', 'age', 'joined', 'active']);
    expect(() => validateOperations(ops({ op: 'one_hot_encode', column: 'city' }, { op: 'drop_columns', columns: ['town_x'] }), columns)).toThrow('no column named "town_x"');
  });
});
