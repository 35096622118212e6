import { spawnSync } from 'node:child_process';
import path from 'node:path';

describe('web/src/api-types.ts', () => {
  it('is what scripts/api-types.ts generates from the current OpenAPI document (run npm run build:api-types)', () => {
    // In a child process: openapi-typescript loads an ES module through require, which Node does and Jest does not.
    const run = spawnSync(process.execPath, [path.join(__dirname, 'api-types.js'), '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
