"""Reference values for engine/data/profile.test.ts, computed once with pandas/numpy.

Run: python3 bench/reference/profile_reference.py > /tmp/ref.ts  and paste the output into the test.
pandas conventions mirrored by analyze(): std ddof=1, quantile linear, skew/kurt bias-corrected,
numpy.histogram(bins=20), Pearson corr on pairwise complete rows, duplicated().sum().
"""
import json
import numpy as np
import pandas as pd

DATASETS = '/work/shared/datasets'
CATEGORICALS = {'titanic': ['sex', 'embarked', 'deck'], 'penguins': ['species', 'island', 'sex'], 'diamonds': ['cut', 'color']}

out = {}
for name in ['titanic', 'penguins', 'diamonds']:
    df = pd.read_csv(f'{DATASETS}/{name}.csv')
    num = df.select_dtypes(include=['number'])
    cols = {}
    for c in num.columns:
        s = num[c].dropna().astype(float)
        q1, q2, q3 = s.quantile([0.25, 0.5, 0.75], interpolation='linear')
        iqr = q3 - q1
        counts, _ = np.histogram(s.to_numpy(), bins=20)
        cols[c] = {
            'unique': int(num[c].nunique()), 'missing': int(num[c].isna().sum()),
            'min': float(s.min()), 'max': float(s.max()), 'mean': float(s.mean()), 'std': float(s.std()),
            'p25': float(q1), 'p50': float(q2), 'p75': float(q3),
            'skewness': float(s.skew()), 'kurtosis': float(s.kurt()),
            'outlier_count': int(((s < q1 - 1.5 * iqr) | (s > q3 + 1.5 * iqr)).sum()),
            'histogram': [int(x) for x in counts],
        }
    corr = num.corr(method='pearson')
    cats = {c: {'unique': int(df[c].nunique()), 'missing': int(df[c].isna().sum()),
                'top_values': {str(k): int(v) for k, v in df[c].value_counts().head(10).items()}}
            for c in CATEGORICALS[name]}
    out[name] = {
        'row_count': int(len(df)), 'duplicate_rows': int(df.duplicated().sum()),
        'numeric': cols, 'categorical': cats,
        'corr': {a: {b: float(corr.loc[a, b]) for b in corr.columns} for a in corr.columns},
    }
# One line per column keeps the pasted block reviewable.
lines = ['const PANDAS_REFERENCE = {']
for name, d in out.items():
    lines.append(f'  {name}: {{')
    lines.append(f"    row_count: {d['row_count']}, duplicate_rows: {d['duplicate_rows']},")
    for key in ['numeric', 'categorical', 'corr']:
        lines.append(f'    {key}: {{')
        for c, v in d[key].items():
            lines.append(f'      {json.dumps(c)}: {json.dumps(v)},')
        lines.append('    },')
    lines.append('  },')
lines.append('};')
print('\n'.join(lines))
