"""SDV's GaussianCopulaSynthesizer on the rows run.ts used, and SDMetrics' QualityReport of both synthetic tables.

Run after run.ts: ~/.cache/mlsvc/venv-synth/bin/python bench/synth-copula/peer.py  (pip install sdv sdmetrics)
Prints one line per dataset and writes bench/results/synth-copula/<name>.peer.json.
"""
import glob
import json
import os
import time
import warnings

import pandas as pd
from sdmetrics.reports.single_table import QualityReport

warnings.filterwarnings("ignore")
OUT = os.path.join(os.path.dirname(__file__), "..", "results", "synth-copula")
SDTYPE = {"numeric": "numerical", "categorical": "categorical", "datetime": "datetime"}


def load(path, kinds):
    cats = [c for c, k in kinds.items() if k == "categorical"]
    df = pd.read_csv(path, dtype={c: str for c in cats}, keep_default_na=False, na_values=[""])
    for c, k in kinds.items():
        if k == "datetime":
            df[c] = pd.to_datetime(df[c], utc=True).dt.tz_localize(None)
    return df


def score(real, synthetic, metadata):
    report = QualityReport()
    report.generate(real, synthetic, metadata, verbose=False)
    props = report.get_properties().set_index("Property")["Score"]
    return {"overall": float(report.get_score()), "column_shapes": float(props["Column Shapes"]), "column_pair_trends": float(props["Column Pair Trends"])}


def main():
    from sdv.metadata import Metadata
    from sdv.single_table import GaussianCopulaSynthesizer

    for result_path in sorted(glob.glob(os.path.join(OUT, "*.json"))):
        if result_path.endswith(".peer.json"):
            continue
        ours = json.load(open(result_path))
        name, kinds = ours["dataset"], ours["kinds"]
        real = load(os.path.join(OUT, f"{name}.real.csv"), kinds)
        synthetic = load(os.path.join(OUT, f"{name}.synthetic.csv"), kinds)
        md = {"columns": {c: {"sdtype": SDTYPE[k]} for c, k in kinds.items()}}
        metadata = Metadata.load_from_dict({"tables": {"t": md}})
        synth = GaussianCopulaSynthesizer(metadata, enforce_min_max_values=True, enforce_rounding=True)
        t = time.perf_counter()
        synth.fit({"t": real})  # SDV 2.x takes a {table name: DataFrame} dict
        fit_secs = time.perf_counter() - t
        sdv_sample = synth.sample(len(real))
        if isinstance(sdv_sample, dict):
            sdv_sample = sdv_sample["t"]
        peer = {
            "dataset": name,
            "sdv_fit_secs": fit_secs,
            "sdv_quality": score(real, sdv_sample, md),
            "ours_quality_by_sdmetrics": score(real, synthetic, md),
            "ours_quality_by_engine": ours["quality"],
            "ours_fit_secs": ours["fit_secs"],
        }
        json.dump(peer, open(os.path.join(OUT, f"{name}.peer.json"), "w"), indent=1)
        print(
            f"{name}: rows {len(real)} | SDV fit {fit_secs:.2f} s quality {peer['sdv_quality']['overall']:.4f} "
            f"(shapes {peer['sdv_quality']['column_shapes']:.4f}, pairs {peer['sdv_quality']['column_pair_trends']:.4f}) | "
            f"ours fit {ours['fit_secs']:.2f} s quality by SDMetrics {peer['ours_quality_by_sdmetrics']['overall']:.4f} "
            f"(shapes {peer['ours_quality_by_sdmetrics']['column_shapes']:.4f}, pairs {peer['ours_quality_by_sdmetrics']['column_pair_trends']:.4f}), "
            f"by our engine {ours['quality']['overall']:.4f}"
        )


if __name__ == "__main__":
    main()
