"""SDV's synthesizer of each type on the rows run.ts used, with the same settings, and SDMetrics' QualityReport of
both synthetic tables (ours from run.ts, SDV's sampled here with as many rows as the real table).

Started by run.ts (bench/synth/run.ts) as: python peer.py --threads 2 <dataset>.<type> ...
Reads bench/results/synth/<dataset>.real.csv, <dataset>.<type>.synthetic.csv and <dataset>.<type>.json (our
settings and column kinds); writes <dataset>.<type>.peer.json. Needs sdv and sdmetrics (pip install sdv sdmetrics).
"""
import argparse
import json
import os
import random
import time
import warnings

import numpy as np
import pandas as pd

warnings.filterwarnings("ignore")
from sdmetrics.reports.single_table import QualityReport  # noqa: E402  (after the filter: it warns on import)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", "synth")
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


def synthesizer(model_type, metadata, config):
    """SDV's synthesizer of `model_type` with our settings; what neither side sets stays at SDV's defaults, which are
    the spec's (TVAE's 128-128 encoder and decoder, CTGAN's learning rates, one discriminator step)."""
    from sdv.single_table import CopulaGANSynthesizer, CTGANSynthesizer, GaussianCopulaSynthesizer, TVAESynthesizer

    common = {"enforce_min_max_values": True, "enforce_rounding": True}
    if model_type == "gaussian_copula":
        return GaussianCopulaSynthesizer(metadata, **common)
    nn = {"epochs": config["epochs"], "batch_size": config["batch_size"], "embedding_dim": config["embedding_dim"], "enable_gpu": False}
    if model_type == "tvae":
        return TVAESynthesizer(metadata, **common, **nn)
    gan = {**nn, "generator_dim": tuple(config["generator_dim"]), "discriminator_dim": tuple(config["discriminator_dim"]), "pac": config["pac"]}
    cls = CTGANSynthesizer if model_type == "ctgan" else CopulaGANSynthesizer
    return cls(metadata, **common, **gan)


def warm_up(model_type, metadata, config, real):
    """One throw-away fit (1 epoch, the first 1000 rows) before the first timed fit of a type. SDV pays one-time costs
    inside its first fit in a process: torch.optim imports torch._dynamo lazily (3-5 s here), and the data transformer
    starts a joblib process pool for 500 rows or more (up to 6 s). A service would pay them once at start-up, so they
    stay out of SDV's fit time. Ours stay in ours: every fit starts a fresh worker thread, wasm backend and ONNX
    Runtime session."""
    synthesizer(model_type, metadata, {**config, "epochs": 1}).fit({"t": real.head(1000)})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("jobs", nargs="+", help="<dataset>.<type>, as run.ts wrote them")
    args = parser.parse_args()

    import torch
    from sdv.metadata import Metadata

    torch.set_num_threads(args.threads)
    warmed = set()
    for job in args.jobs:
        ours = json.load(open(os.path.join(OUT, f"{job}.json")))
        name, model_type, kinds = ours["dataset"], ours["type"], ours["kinds"]
        real = load(os.path.join(OUT, f"{name}.real.csv"), kinds)
        synthetic = load(os.path.join(OUT, f"{job}.synthetic.csv"), kinds)
        md = {"columns": {c: {"sdtype": SDTYPE[k]} for c, k in kinds.items()}}
        metadata = Metadata.load_from_dict({"tables": {"t": md}})
        if model_type not in warmed:
            warm_up(model_type, metadata, ours["config"], real)
            warmed.add(model_type)
        seed = ours["config"].get("seed", 1)
        random.seed(seed)
        np.random.seed(seed)
        torch.manual_seed(seed)
        synth = synthesizer(model_type, metadata, ours["config"])
        t = time.perf_counter()
        synth.fit({"t": real})  # SDV 2.x takes a {table name: DataFrame} dict
        fit_secs = time.perf_counter() - t
        sdv_sample = synth.sample(len(real))
        if isinstance(sdv_sample, dict):
            sdv_sample = sdv_sample["t"]
        peer = {
            "dataset": name,
            "type": model_type,
            "sdv_class": type(synth).__name__,
            "sdv_parameters": {k: (list(v) if isinstance(v, tuple) else v) for k, v in synth.get_parameters().items() if isinstance(v, (int, float, str, bool, tuple, list, type(None)))},
            "torch_threads": torch.get_num_threads(),
            "sdv_fit_secs": fit_secs,
            "sdv_quality": score(real, sdv_sample, md),
            "ours_quality_by_sdmetrics": score(real, synthetic, md),
            "ours_quality_by_engine": ours["quality"],
            "ours_fit_secs": ours["fit_secs"],
        }
        json.dump(peer, open(os.path.join(OUT, f"{job}.peer.json"), "w"), indent=1)
        print(
            f"SDV {name} {model_type}: fit {fit_secs:.2f} s, quality {peer['sdv_quality']['overall']:.4f} | "
            f"ours by SDMetrics {peer['ours_quality_by_sdmetrics']['overall']:.4f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
