import { loadConfig } from '../platform/config';
import { ensureNerModel } from '../platform/ner-model';

/** Makes the named-entity model available (converted once into NER_MODEL_DIR, default ~/.cache/mlsvc/ner) and prints its directory. */
ensureNerModel(loadConfig().nerModelDir)
  .then((dir) => console.log(dir))
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
