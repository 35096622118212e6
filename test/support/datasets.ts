import fs from 'node:fs';
import path from 'node:path';

/** `shared/datasets` beside the clone (override with DATASETS_DIR). */
export function datasetPath(name: string): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(process.env.DATASETS_DIR ?? path.join(dir, '..', 'shared', 'datasets'), name);
}

export function datasetFile(name: string): { name: string; data: Buffer } {
  return { name, data: fs.readFileSync(datasetPath(name)) };
}
