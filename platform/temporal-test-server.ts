import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir } from './temporal-dev';

/**
 * The time-skipping test server that `@temporalio/testing`'s `createTimeSkipping()` runs. Its default is to
 * download a native build from temporal.download, which our build machines cannot reach; the same server is a
 * Java program published on Maven Central, so we fetch that once with Maven and hand the SDK a launcher for it
 * (`server.executable: { type: 'existing-path' }`). Any recent 1.x serves SDK 1.24: it speaks the public gRPC API
 * plus the test service (time skipping), both stable across these releases.
 */
export const TEMPORAL_TEST_SERVER_VERSION = '1.38.0';

const MAIN_CLASS = 'io.temporal.testserver.TestServer';

type Say = (msg: string) => void;

/** Where one version lives: `lib/` (the jar and its runtime dependencies) and the `launch` script. */
export function testServerDir(version = TEMPORAL_TEST_SERVER_VERSION): string {
  return path.join(cacheDir(), 'temporal-test-server', version);
}

/** A pom whose only job is to name the server so `dependency:copy-dependencies` resolves its runtime classpath. */
function pomFor(version: string): string {
  return `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.mlsvc</groupId>
  <artifactId>temporal-test-server-fetch</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>${version}</version>
    </dependency>
    <!-- Binds SLF4J to nothing, so the server does not print its "no binding" warning into every test run. -->
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-nop</artifactId>
      <version>1.7.36</version>
    </dependency>
  </dependencies>
</project>
`;
}

/**
 * The path of an executable that starts the test server on the port given as its first argument (what the SDK
 * passes). The first call fetches the server with `mvn` into {@link testServerDir} (a few seconds with a warm
 * `~/.m2`, about 40 MB); later calls find the launcher and return at once. `TEMPORAL_TEST_SERVER_PATH` names a
 * launcher to use instead.
 */
export function ensureTemporalTestServer(say: Say = (m) => console.log(`[temporal-test-server] ${m}`), version = TEMPORAL_TEST_SERVER_VERSION): string {
  const explicit = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (explicit && fs.existsSync(explicit)) return explicit;
  const dir = testServerDir(version);
  const launcher = path.join(dir, 'launch');
  // The launcher is written last, so its presence means the jars beside it are complete.
  if (fs.existsSync(launcher)) return launcher;

  for (const tool of ['java', 'mvn']) {
    // `env` is explicit so the PATH searched is the one this module sees (a Jest sandbox keeps its own copy).
    if (spawnSync(tool, ['-version'], { stdio: 'ignore', env: process.env }).status !== 0) {
      throw new Error(`The Temporal test server needs \`${tool}\` (Java 17+ and Maven 3) to be fetched from Maven Central once`);
    }
  }
  say(`fetching io.temporal:temporal-test-server:${version} and its dependencies with Maven into ${dir}`);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  // Build in a scratch folder and rename it into place: a concurrent or interrupted fetch never leaves a
  // launcher beside a partial classpath.
  const work = fs.mkdtempSync(path.join(path.dirname(dir), `.${version}-`));
  try {
    fs.chmodSync(work, 0o755);
    fs.writeFileSync(path.join(work, 'pom.xml'), pomFor(version));
    // Output is kept for a failure only: on success Debian's Maven 3.8 still prints bare colour codes.
    const r = spawnSync('mvn', ['-q', '-B', 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${path.join(work, 'lib')}`], {
      cwd: work,
      env: process.env,
      encoding: 'utf8',
    });
    if (r.status !== 0) {
      throw new Error(`mvn could not fetch io.temporal:temporal-test-server:${version} (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
    }
    if (!fs.existsSync(path.join(work, 'lib', `temporal-test-server-${version}.jar`))) {
      throw new Error(`mvn finished but temporal-test-server-${version}.jar is not in ${path.join(work, 'lib')}`);
    }
    // `exec` so the process the SDK spawns (and later kills) is the JVM itself, not a shell around it.
    const script = `#!/bin/sh\n# Temporal time-skipping test server ${version}; argument: the port.\nexec java -cp '${path.join(dir, 'lib')}/*' ${MAIN_CLASS} "$@"\n`;
    fs.writeFileSync(path.join(work, 'launch'), script, { mode: 0o755 });
    // A folder without a launcher is what an older, interrupted layout left; nothing else writes one.
    if (fs.existsSync(dir) && !fs.existsSync(launcher)) fs.rmSync(dir, { recursive: true, force: true });
    try {
      fs.renameSync(work, dir);
    } catch (err) {
      // Another process finished first; its copy is as good as ours.
      if (!fs.existsSync(launcher)) throw err;
      fs.rmSync(work, { recursive: true, force: true });
    }
  } catch (err) {
    fs.rmSync(work, { recursive: true, force: true });
    throw err;
  }
  return launcher;
}
