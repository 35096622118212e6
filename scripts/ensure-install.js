// `npm start` on a fresh clone: install dependencies first when node_modules is missing.
const { execSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) {
  console.log('[start] node_modules missing: running npm ci');
  execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit', env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
}
