"""Writes small committed fixtures for engine/data tests (run once: python3 bench/reference/make_fixtures.py)."""
import datetime as dt
import pyarrow as pa
import pyarrow.parquet as pq

OUT = 'engine/data/testdata/pyarrow_types.parquet'
n = 12
table = pa.table({
    'i32': pa.array([i if i % 5 else None for i in range(n)], pa.int32()),
    'f32': pa.array([i * 0.5 for i in range(n)], pa.float32()),
    'flag': pa.array([i % 2 == 0 for i in range(n)], pa.bool_()),
    'ts': pa.array([dt.datetime(2024, 1, 1, 12, 0, i) for i in range(n)], pa.timestamp('us')),
    'day': pa.array([dt.date(2024, 2, 1 + i) for i in range(n)], pa.date32()),
    'color': pa.array(['red', 'green', 'blue', 'red'] * 3).dictionary_encode(),
    'label': pa.array([f'item-{i}' for i in range(n)], pa.string()),
})
pq.write_table(table, OUT, compression='snappy')
print('wrote', OUT)
