"""Reference values for engine/synth/quality/metrics.test.ts, computed with SDMetrics (the Python package).

Run: ~/.cache/mlsvc/venv-synth/bin/python bench/reference/sdmetrics_reference.py
     (venv: python3 -m venv ~/.cache/mlsvc/venv-synth && ~/.cache/mlsvc/venv-synth/bin/pip install sdmetrics)
Writes engine/synth/quality/testdata/sdmetrics_reference.json (then `npx prettier --write` it): a small fixed real and synthetic table (numbers,
integers, categories with missing values and a category only the synthetic side has, datetimes, a boolean-like
column) and SDMetrics' values on them: KSComplement and TVComplement per column, CorrelationSimilarity and
ContingencySimilarity per pair, the single-table QualityReport's details and scores (with its default thresholds and
with both thresholds at 0), and the DCR distances of dcr_utils.calculate_dcr.
"""
import json
import os
import warnings

import numpy as np
import pandas as pd
import sdmetrics
from sdmetrics.column_pairs import ContingencySimilarity, CorrelationSimilarity
from sdmetrics.reports import QualityReport as UnifiedQualityReport
from sdmetrics.reports.single_table import QualityReport
from sdmetrics.single_column import KSComplement, TVComplement
from sdmetrics.single_table.privacy.dcr_utils import calculate_dcr

warnings.filterwarnings("ignore")
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "engine", "synth", "quality", "testdata", "sdmetrics_reference.json")


def make_table(rng, n, shift, novel):
    a = np.round(rng.normal(10 + shift, 3, n), 3)
    b = np.round(0.8 * a + rng.normal(0, 1.5, n))  # whole numbers, correlated with a
    c = np.round(rng.gamma(2.0, 2.0 + shift, n), 2)
    cats = np.array(["red", "green", "blue", "amber"] + (["violet"] if novel else []))
    x = rng.choice(cats, n, p=[0.4, 0.3, 0.2, 0.1] if not novel else [0.35, 0.3, 0.2, 0.1, 0.05]).astype(object)
    y = np.where(a + rng.normal(0, 1.0, n) > 10.5 + shift, "high", "low").astype(object)  # associated with a
    flag = rng.choice(["yes", "no"], n, p=[0.6, 0.4]).astype(object)
    ms = (1_600_000_000_000 + rng.integers(0, 400, n) * 86_400_000 + (a * 3_600_000).astype(np.int64)).astype(np.int64)
    a[rng.choice(n, 4, replace=False)] = np.nan
    c[rng.choice(n, 3, replace=False)] = np.nan
    x[rng.choice(n, 5, replace=False)] = None
    ms = ms.astype(float)
    ms[rng.choice(n, 2, replace=False)] = np.nan
    return {"a": a, "b": b, "c": c, "x": x, "y": y, "flag": flag, "when": ms}


KINDS = {"a": "numerical", "b": "numerical", "c": "numerical", "x": "categorical", "y": "categorical", "flag": "boolean", "when": "datetime"}


def to_frame(cols):
    df = pd.DataFrame({k: v for k, v in cols.items() if k != "when"})
    df["when"] = pd.to_datetime(cols["when"], unit="ms")
    return df[list(KINDS)]


def jsonable(v):
    if isinstance(v, float) and np.isnan(v):
        return None
    if isinstance(v, (np.floating,)):
        return None if np.isnan(v) else float(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.bool_,)):
        return bool(v)
    return v


def col_json(values):
    return [jsonable(v) if v is not None else None for v in values]


def report_json(real, synthetic, metadata, corr_thr=None, assoc_thr=None):
    report = QualityReport()
    if corr_thr is not None:
        report.real_correlation_threshold = corr_thr
        report.real_association_threshold = assoc_thr
    report.generate(real, synthetic, metadata, verbose=False)
    shapes = report.get_details("Column Shapes")
    trends = report.get_details("Column Pair Trends")
    props = report.get_properties()
    return {
        "overall": jsonable(report.get_score()),
        "column_shapes": jsonable(props.loc[props["Property"] == "Column Shapes", "Score"].iloc[0]),
        "column_pair_trends": jsonable(props.loc[props["Property"] == "Column Pair Trends", "Score"].iloc[0]),
        "shapes": [{"column": r["Column"], "metric": r["Metric"], "score": jsonable(r["Score"])} for _, r in shapes.iterrows()],
        "pairs": [
            {
                "columns": [r["Column 1"], r["Column 2"]],
                "metric": r["Metric"],
                "score": jsonable(r["Score"]),
                "real_correlation": jsonable(r["Real Correlation"]),
                "real_association": jsonable(r["Real Association"]),
                "meets_threshold": bool(r["Meets Threshold?"]) if not pd.isna(r["Meets Threshold?"]) else False,
            }
            for _, r in trends.iterrows()
        ],
    }


def main():
    rng = np.random.default_rng(20240611)
    real_cols = make_table(rng, 60, 0.0, False)
    syn_cols = make_table(rng, 50, 0.7, True)
    real, synthetic = to_frame(real_cols), to_frame(syn_cols)
    metadata = {"columns": {k: {"sdtype": v} for k, v in KINDS.items()}}

    metrics = {}
    for k, v in KINDS.items():
        metric = KSComplement if v in ("numerical", "datetime") else TVComplement
        metrics[k] = {"metric": metric.__name__, "score": jsonable(metric.compute(real[k], synthetic[k]))}
    corr = {}
    for p in [("a", "b"), ("a", "c"), ("b", "c"), ("a", "when")]:
        br = CorrelationSimilarity.compute_breakdown(real[list(p)], synthetic[list(p)])
        corr["~".join(p)] = {k: jsonable(v) for k, v in br.items()}
    cont = {}
    for p in [("x", "y"), ("x", "flag"), ("y", "flag")]:
        cont["~".join(p)] = jsonable(ContingencySimilarity.compute(real[list(p)], synthetic[list(p)]))

    # SDMetrics deprecates the single-table report for the unified one; both give the same score.
    unified = UnifiedQualityReport()
    unified.generate({"t": real}, {"t": synthetic}, {"tables": {"t": metadata}}, verbose=False)

    dcr = calculate_dcr(dataset=synthetic, reference_dataset=real, metadata=metadata)
    out = {
        "sdmetrics_version": sdmetrics.__version__,
        "kinds": KINDS,
        "real": {k: col_json(v) for k, v in real_cols.items()},
        "synthetic": {k: col_json(v) for k, v in syn_cols.items()},
        "metrics": metrics,
        "correlation_similarity": corr,
        "contingency_similarity": cont,
        "report_default": report_json(real, synthetic, metadata),
        "report_no_thresholds": report_json(real, synthetic, metadata, 0, 0),
        "report_unified_overall": jsonable(unified.get_score()),
        "dcr_synthetic_to_real": [float(d) for d in dcr],
        "dcr_median": float(dcr.median()),
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
    print("wrote", os.path.normpath(OUT))
    print(json.dumps({k: out[k] for k in ("metrics", "correlation_similarity", "contingency_similarity")}, indent=1))
    print("overall", out["report_default"]["overall"], out["report_no_thresholds"]["overall"])


if __name__ == "__main__":
    main()
