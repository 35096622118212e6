"""Generates the GBDT benchmark problem: 1,000,000 rows x 28 float features, binary label.

The label comes from a fixed random nonlinear function of the features (pairwise products,
thresholds and a smooth term) plus noise, so trees have real structure to find. Written as raw
little-endian float32, row-major, 29 columns (label last), to the path given (default
/tmp/gbdt/data.f32). Run: python3 bench/gbdt/make_data.py [path] [rows]
"""
import os
import sys
import numpy as np

path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/gbdt/data.f32"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
p = 28
rng = np.random.RandomState(2024)
X = rng.randn(n, p).astype(np.float32)
X[:, 20:] = np.exp(X[:, 20:])  # some skewed features
w = rng.randn(p)
score = X[:, :10] @ w[:10] * 0.3
for a, b in [(0, 1), (2, 3), (4, 5), (6, 7), (10, 11), (12, 13)]:
    score += 0.8 * X[:, a] * X[:, b]
score += 1.5 * (X[:, 14] > 0.5) - 1.0 * (X[:, 15] < -0.3) + np.sin(2 * X[:, 16])
score += 0.5 * np.log1p(X[:, 20]) - 0.3 * X[:, 21]
score += rng.randn(n) * 1.0
y = (score > np.median(score)).astype(np.float32)
os.makedirs(os.path.dirname(path), exist_ok=True)
np.hstack([X, y[:, None]]).astype("<f4").tofile(path)
print(f"wrote {path}: {n} rows, {p} features, positive rate {y.mean():.3f}")
