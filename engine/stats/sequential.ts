import type { Moments } from './moments';

/**
 * Sequential A/B statistics that stay valid under continuous monitoring: the mixture sequential probability ratio
 * test (mSPRT) of Johari, Koomen, Pekelis & Walsh, "Always Valid Inference" (2017), for the difference of means of a
 * treatment and the control under the normal approximation (the central limit theorem on each arm's mean, its
 * variance plugged in from the sample, as their two-stream test does for conversion rates).
 *
 * With the estimate Δ̂ = mean_t − mean_c, its variance v = s²_c/n_c + s²_t/n_t and a normal mixture N(θ0, τ²) over
 * the alternative, the likelihood ratio against H0: Δ = θ0 is
 *
 *   Λ(θ0) = sqrt(v / (v + τ²)) · exp(τ² (Δ̂ − θ0)² / (2 v (v + τ²)))
 *
 * a nonnegative martingale under H0, so by Ville's inequality P(Λ ever reaches 1/α) ≤ α however often it is looked
 * at. Hence the always-valid p-value min(1, 1/Λ(0)) and the confidence sequence {θ0 : Λ(θ0) < 1/α}, whose half-width
 * is sqrt(v (v + τ²) / τ² · (2 ln(1/α) + ln((v + τ²) / v))). With equal arms (v = 2σ²/n) this is the paper's formula.
 *
 * τ² sets where the test is most sensitive: it is chosen so that the confidence sequence is narrowest when each arm
 * has `designSamples` observations (τ² = r·v*, with v* the estimate's variance there and r = 2 ln(1/α) +
 * ln(1 + 2 ln(1/α)), the normal mixture's tuning of Howard, Ramdas, McAuliffe & Sekhon 2021), in units of the
 * observed spread, so it fits a conversion rate and a revenue alike.
 */

export interface MsprtResult {
  /** mean(treatment) − mean(control). */
  effect: number;
  /** The always-valid confidence sequence at this time; null until both arms have a spread to measure. */
  ciLow: number | null;
  ciHigh: number | null;
  /** Always-valid p-value of "no difference"; 1 until it can be measured. */
  pValue: number;
}

/** The mixing variance as a multiple of the estimate's variance at the design sample size (see the module comment). */
function mixingRatio(alpha: number): number {
  const l = 2 * Math.log(1 / alpha);
  return l + Math.log(1 + l);
}

/** One comparison at level `alpha` (already adjusted for multiplicity by the caller). */
export function msprt(control: Moments, treatment: Moments, alpha: number, designSamples: number): MsprtResult {
  const effect = treatment.mean - control.mean;
  const none = { effect, ciLow: null, ciHigh: null, pValue: 1 };
  if (control.n < 2 || treatment.n < 2) return none;
  const v = control.variance / control.n + treatment.variance / treatment.n;
  // Both arms constant: no spread to scale the test by, so nothing can be said yet.
  if (!(v > 0) || !Number.isFinite(v)) return none;
  const tau2 = (mixingRatio(alpha) * (control.variance + treatment.variance)) / Math.max(1, designSamples);
  const logLambda = 0.5 * Math.log(v / (v + tau2)) + (tau2 * effect * effect) / (2 * v * (v + tau2));
  const pValue = Math.min(1, Math.exp(-logLambda));
  const half = Math.sqrt(((v * (v + tau2)) / tau2) * (2 * Math.log(1 / alpha) + Math.log((v + tau2) / v)));
  return { effect, ciLow: effect - half, ciHigh: effect + half, pValue };
}

export interface SequentialOptions {
  /** Family-wise level over all comparisons (Bonferroni: each comparison is tested at alpha / comparisons). */
  alpha: number;
  /** Observations each arm of a comparison needs before it may be significant. */
  minSamples: number;
  /** false for a loss (log loss): the lower mean wins. */
  higherIsBetter: boolean;
  /** Per-arm sample size where the confidence sequences are narrowest; default max(minSamples, 1000). */
  designSamples?: number;
}

export interface ArmComparison extends MsprtResult {
  /** The treatment's index in `arms` (the control is arm 0). */
  arm: number;
  significant: boolean;
}

/** The conclusion: `winner` beats `against` by `effect` (winner − against, in the metric's units). */
export interface SequentialDecision {
  winner: number;
  against: number;
  effect: number;
  ciLow: number;
  ciHigh: number;
  pValue: number;
}

export interface SequentialResult {
  /** The level each comparison is tested at. */
  adjustedAlpha: number;
  comparisons: ArmComparison[];
  /** null while no boundary has been crossed (or min samples are not met). */
  decision: SequentialDecision | null;
}

/**
 * Every treatment against the control (arm 0), Bonferroni-adjusted. The test decides when a treatment is
 * significantly better than the control (the best such one wins), or when every treatment is significantly worse
 * (the control wins, against the closest one); otherwise it keeps running.
 */
export function sequentialTest(arms: Moments[], o: SequentialOptions): SequentialResult {
  if (arms.length < 2) throw new Error('a sequential test needs a control and at least one treatment');
  const adjustedAlpha = o.alpha / (arms.length - 1);
  const design = o.designSamples ?? Math.max(o.minSamples, 1000);
  const control = arms[0];
  const comparisons = arms.slice(1).map((t, i): ArmComparison => {
    const r = msprt(control, t, adjustedAlpha, design);
    const enough = control.n >= o.minSamples && t.n >= o.minSamples;
    return { ...r, arm: i + 1, significant: enough && r.pValue < adjustedAlpha && r.ciLow !== null };
  });
  // Improvement in the metric's good direction.
  const gain = (effect: number) => (o.higherIsBetter ? effect : -effect);
  const better = comparisons.filter((c) => c.significant && gain(c.effect) > 0).sort((a, b) => gain(b.effect) - gain(a.effect));
  let decision: SequentialDecision | null = null;
  if (better.length) {
    const c = better[0];
    decision = { winner: c.arm, against: 0, effect: c.effect, ciLow: c.ciLow as number, ciHigh: c.ciHigh as number, pValue: c.pValue };
  } else if (comparisons.every((c) => c.significant && gain(c.effect) < 0)) {
    // The control beats every treatment; its margin is stated against the closest one, from the control's side.
    const c = [...comparisons].sort((a, b) => gain(b.effect) - gain(a.effect))[0];
    decision = { winner: 0, against: c.arm, effect: -c.effect, ciLow: -(c.ciHigh as number), ciHigh: -(c.ciLow as number), pValue: c.pValue };
  }
  return { adjustedAlpha, comparisons, decision };
}
