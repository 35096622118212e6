/**
 * Training's pulse: between units of its work (a tree, an epoch, a solver sweep) the engine calls `trainingPulse()`.
 * A host that must show it is alive while a model trains (the AutoML activity heartbeats Temporal from it, through its
 * training thread's progress messages) listens with `onTrainingPulse`; nothing listens otherwise. Long steps then
 * report from inside their own loop, and a stuck one stops reporting, instead of a timer that beats regardless.
 */
let listener: (() => void) | null = null;

/** Sets (or, with null, clears) what each pulse calls: keep it cheap, it runs once per tree or sweep. */
export function onTrainingPulse(fn: (() => void) | null): void {
  listener = fn;
}

/** Called by the trainers' loops; a no-op unless a host listens. */
export function trainingPulse(): void {
  listener?.();
}
