import { loadConfig } from '../platform/config';
import { ensureNerModel } from '../platform/ner-model';
import { ensureWordClasses } from '../platform/word-classes';

/**
 * Makes the named-entity model and the entity tagger's word classes available (converted once into NER_MODEL_DIR,
 * default ~/.cache/mlsvc/ner) and prints the directory.
 */
async function main(): Promise<void> {
  const dir = await ensureNerModel(loadConfig().nerModelDir);
  await ensureWordClasses(dir);
  console.log(dir);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
