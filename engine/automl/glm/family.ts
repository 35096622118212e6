/**
 * GLM families as the solver needs them: the per-row negative log-likelihood (up to terms free of
 * the linear predictor, i.e. half the unit deviance), its derivative in eta, and the IRLS weight
 * (Fisher information in eta). Canonical links except gamma/tweedie, which use the log link as
 * H2O does.
 */
export type FamilyName = 'gaussian' | 'binomial' | 'poisson' | 'gamma' | 'tweedie';

export interface Family {
  name: FamilyName;
  link: 'identity' | 'logistic' | 'log';
  /** Negative log-likelihood of y at linear predictor eta (constants dropped). */
  nll(y: number, eta: number): number;
  /** d nll / d eta. */
  grad(y: number, eta: number): number;
  /** IRLS weight at eta (>= a small floor so the working response stays finite). */
  weight(eta: number): number;
  /** eta of the intercept-only model: link(mean y). */
  nullEta(meanY: number): number;
}

const FLOOR = 1e-10;
const clampEta = (eta: number): number => Math.min(700, Math.max(-700, eta));

function sigmoid(eta: number): number {
  return eta >= 0 ? 1 / (1 + Math.exp(-eta)) : Math.exp(eta) / (1 + Math.exp(eta));
}

/** log(1 + exp(eta)) without overflow. */
function softplus(eta: number): number {
  return eta > 0 ? eta + Math.log1p(Math.exp(-eta)) : Math.log1p(Math.exp(eta));
}

/** The family for a name; `power` is the tweedie variance power (1 < p < 2). */
export function family(name: FamilyName, power = 1.5): Family {
  switch (name) {
    case 'gaussian':
      return { name, link: 'identity', nll: (y, e) => 0.5 * (y - e) * (y - e), grad: (y, e) => e - y, weight: () => 1, nullEta: (m) => m };
    case 'binomial':
      return {
        name,
        link: 'logistic',
        nll: (y, e) => softplus(e) - y * e,
        grad: (y, e) => sigmoid(e) - y,
        weight: (e) => {
          const p = sigmoid(e);
          return Math.max(FLOOR, p * (1 - p));
        },
        nullEta: (m) => Math.log(Math.max(FLOOR, m) / Math.max(FLOOR, 1 - m)),
      };
    case 'poisson':
      return {
        name,
        link: 'log',
        nll: (y, e) => Math.exp(clampEta(e)) - y * e,
        grad: (y, e) => Math.exp(clampEta(e)) - y,
        weight: (e) => Math.max(FLOOR, Math.exp(clampEta(e))),
        nullEta: (m) => Math.log(Math.max(FLOOR, m)),
      };
    case 'gamma':
      // Fisher weight of the log link is 1: var(mu) = mu^2 cancels (dmu/deta)^2 = mu^2.
      return { name, link: 'log', nll: (y, e) => y * Math.exp(-clampEta(e)) + e, grad: (y, e) => 1 - y * Math.exp(-clampEta(e)), weight: () => 1, nullEta: (m) => Math.log(Math.max(FLOOR, m)) };
    case 'tweedie':
      return {
        name,
        link: 'log',
        nll: (y, e) => (-y * Math.exp((1 - power) * clampEta(e))) / (1 - power) + Math.exp((2 - power) * clampEta(e)) / (2 - power),
        grad: (y, e) => -y * Math.exp((1 - power) * clampEta(e)) + Math.exp((2 - power) * clampEta(e)),
        weight: (e) => Math.max(FLOOR, Math.exp((2 - power) * clampEta(e))),
        nullEta: (m) => Math.log(Math.max(FLOOR, m)),
      };
  }
}

export { sigmoid };
