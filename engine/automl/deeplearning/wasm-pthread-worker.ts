/**
 * Entry of tfjs-backend-wasm's Emscripten pthread workers under Node (see wasm-threads.ts): the package's own worker
 * code, run from this file in the worker's global scope. The main script it loads arrives as a Blob, which Node cannot
 * import, so `URL.createObjectURL` answers the path of the same script in the package (the threaded glue file).
 */
import vm from 'node:vm';

const PACKAGE = '@tensorflow/tfjs-backend-wasm/wasm-out';
const glue = require.resolve(`${PACKAGE}/tfjs-backend-wasm-threaded-simd.js`);
URL.createObjectURL = () => glue;
URL.revokeObjectURL = () => undefined;
// The worker code reads these as globals, as in a classic worker script.
Object.assign(globalThis, { require, __filename });
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's generated module has no types
const { wasmWorkerContents } = require(`${PACKAGE}/tfjs-backend-wasm-threaded-simd.worker.js`) as { wasmWorkerContents: string };
// The package builds its Blob the same way: the template literal turned the code's "\n" escapes into newlines.
vm.runInThisContext(wasmWorkerContents.replace(/\n/g, '\\n'), { filename: 'tfjs-backend-wasm-threaded-simd.worker.js' });
