/**
 * Worker threads: the one door. Hosts (the parent side) start threads with `startThread`; thread scripts use
 * `threadContext`, `nativeSection` and `stopRequested`. ESLint lets no other folder import `Worker`, `parentPort` or
 * `workerData`, and this is the one module of platform/ the engine may import: it imports nothing but Node.
 */
export { startThread, threadScript, threadsEnded, ThreadHost } from './host';
export type { MessageHandlers, StopOptions, ThreadEvents, ThreadMessage, ThreadOptions, ThreadScript } from './host';
export { nativeSection, stopRequested, ThreadStopping } from './gate';
export { describeError, inHostThread, threadContext } from './thread';
export type { ThreadContext } from './thread';
