"""Reference coefficients for engine/automl/glm/glm.test.ts, computed with scikit-learn.

Run: python3 bench/reference/glm_reference.py  (needs numpy, scikit-learn; reads ../shared/datasets)
Its JSON output is pasted into the test as constants.

The design mirrors engine/automl/encoding/design.ts: numeric columns imputed with the mean of
their non-missing values and standardized with the sample standard deviation (ddof=1); categorical
columns one-hot with the first (sorted) level as reference, missing as all zeros. The penalty
scaling matches the GLM objective (1/n) sum nll + lambda * (alpha |b|_1 + (1 - alpha)/2 |b|_2^2):
ElasticNet(alpha=lambda, l1_ratio=alpha), LogisticRegression(C=1/(lambda n), l1_ratio=alpha),
PoissonRegressor / GammaRegressor / TweedieRegressor(alpha=lambda) (ridge only).
"""
import csv
import json
import os
import warnings

import numpy as np
from sklearn.linear_model import ElasticNet, GammaRegressor, LogisticRegression, PoissonRegressor, TweedieRegressor

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("DATASETS_DIR", os.path.join(HERE, "..", "..", "..", "shared", "datasets"))


def read(name, header=True):
    with open(os.path.join(DATA, name)) as f:
        rows = list(csv.reader(f))
    if header:
        return rows[0], rows[1:]
    return [f"C{i + 1}" for i in range(len(rows[0]))], rows


def design(names, rows, numeric, categorical):
    cols = []
    for c in numeric:
        j = names.index(c)
        v = np.array([float(r[j]) if r[j] not in ("", "NA") else np.nan for r in rows])
        ok = ~np.isnan(v)
        mean = v[ok].mean()
        sd = v[ok].std(ddof=1)
        z = np.where(ok, (v - mean) / (sd if sd > 0 else 1), 0.0)
        cols.append(z)
    for c in categorical:
        j = names.index(c)
        vals = [r[j] for r in rows]
        levels = sorted({v for v in vals if v not in ("", "NA")})
        for lev in levels[1:]:
            cols.append(np.array([1.0 if v == lev else 0.0 for v in vals]))
    return np.column_stack(cols)


def col(names, rows, c):
    j = names.index(c)
    return [r[j] for r in rows]


out = {}
# gaussian: mpg ~ numerics + origin, alpha 0.5, lambda 0.05
names, rows = read("mpg.csv")
num = ["cylinders", "displacement", "horsepower", "weight", "acceleration", "model_year"]
X = design(names, rows, num, ["origin"])
y = np.array([float(v) for v in col(names, rows, "mpg")])
m = ElasticNet(alpha=0.05, l1_ratio=0.5, tol=1e-14, max_iter=1_000_000).fit(X, y)
out["gaussian"] = {"lambda": 0.05, "alpha": 0.5, "intercept": [m.intercept_], "coef": [m.coef_.tolist()]}
for fam, cls, kw in [("poisson", PoissonRegressor, {}), ("gamma", GammaRegressor, {}), ("tweedie", TweedieRegressor, {"power": 1.5, "link": "log"})]:
    m = cls(alpha=0.01, tol=1e-12, max_iter=100_000, **kw).fit(X, y)
    out[fam] = {"lambda": 0.01, "alpha": 0.0, "intercept": [m.intercept_], "coef": [m.coef_.tolist()]}

# binomial: pima C9 ~ C1..C8, alpha 0.5, lambda 0.01 (saga, the solver with elastic net)
names, rows = read("pima-indians-diabetes.csv", header=False)
X = design(names, rows, [f"C{i}" for i in range(1, 9)], [])
y = np.array([int(v) for v in col(names, rows, "C9")])
lam = 0.01
m = LogisticRegression(C=1 / (lam * len(y)), l1_ratio=0.5, solver="saga", tol=1e-12, max_iter=1_000_000).fit(X, y)
out["binomial"] = {"lambda": lam, "alpha": 0.5, "intercept": m.intercept_.tolist(), "coef": m.coef_.tolist()}

# multinomial: penguins species, ridge lambda 0.01 (lbfgs, full softmax as the GLM)
names, rows = read("penguins.csv")
X = design(names, rows, ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"], ["island", "sex"])
y = np.array(col(names, rows, "species"))
m = LogisticRegression(C=1 / (lam * len(y)), tol=1e-12, max_iter=100_000).fit(X, y)
ic = m.intercept_ - m.intercept_.mean()  # intercepts are identified only up to a common shift
out["multinomial"] = {"lambda": lam, "alpha": 0.0, "classes": m.classes_.tolist(), "intercept": ic.tolist(), "coef": m.coef_.tolist()}
print(json.dumps(out))
