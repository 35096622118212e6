#!/usr/bin/env node
// The registry reachable from our build machines serves only linux-x64 builds of some native
// packages, so `npm install` writes a lockfile without the other platforms' optional binaries,
// and `npm ci` then refuses it ("Missing: … from lock file"). This adds an entry (version, os,
// cpu, libc; nothing to download) for every declared optional platform package the lockfile
// lacks, so `npm ci` works everywhere. Run after changing dependencies:
//   node scripts/complete-lockfile.js
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pkgs = lock.packages;
const OS = /(darwin|linux|win32|android|freebsd|openharmony)/;
const CPU = /-(arm64|x64|ia32|arm|ppc64|s390x|riscv64|loong64)(?:-|$)/;
let added = 0;
for (const meta of Object.values(pkgs)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const tail = name.split('/').pop();
    if (pkgs[key] || !OS.test(tail)) continue;
    const os = OS.exec(tail)[1];
    const entry = { version, optional: true, os: [os] };
    const cpu = CPU.exec(tail);
    if (cpu) entry.cpu = [cpu[1]];
    if (os === 'linux') entry.libc = [/musl/.test(tail) ? 'musl' : 'glibc'];
    pkgs[key] = entry;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
