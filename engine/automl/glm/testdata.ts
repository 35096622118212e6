/** Test helpers of the GLM/DL/ensemble tests: datasets of ../shared/datasets and prepared training data. */
import fs from 'node:fs';
import path from 'node:path';
import { Frame, RequestedKind, prepareFeatures, readCsvFrame } from '../frame';
import type { TrainingData } from '../training';

/** ../shared/datasets next to the repository (the folder holding package.json), or DATASETS_DIR. */
export function sharedDataset(name: string): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(process.env.DATASETS_DIR ?? path.join(dir, '..', 'shared', 'datasets'), name);
}

/** Reads and prepares a data set (header-less files name their columns C1..Cn). */
export async function loadDataset(file: string, target: string, kind: RequestedKind = 'auto', limit?: number): Promise<{ frame: Frame; data: TrainingData }> {
  const frame = await readCsvFrame(sharedDataset(file), limit ? { limit } : {});
  const prep = prepareFeatures(frame, { target, kind });
  return { frame: prep.features, data: { features: prep.features, target: prep.target } };
}
