/**
 * The CPU CTGAN trainer's constants (engine/synth/neural: CTGAN_ADAM and GP_LAMBDA of ctgan.ts, FUSED_BN_EPS of
 * fused.ts, GUMBEL_TAU of span-ops.ts), repeated because those modules load TensorFlow.js, which the GPU trainer (and
 * bench/gpu's bundle) does without. ctgan.test.ts checks that they equal the CPU engine's.
 */
export const GPU_CTGAN_CONSTANTS = {
  adam: { lr: 2e-4, beta1: 0.5, beta2: 0.9, eps: 1e-8, weightDecay: 1e-6 },
  /** WGAN-GP's λ. */
  gpLambda: 10,
  /** Batch normalisation's ε (batch statistics, biased variance). */
  bnEps: 1e-5,
  /** Gumbel-softmax temperature of the discrete outputs. */
  gumbelTau: 0.2,
  dropoutRate: 0.5,
} as const;
