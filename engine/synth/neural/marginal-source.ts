/**
 * CopulaGAN's marginals are the Gaussian copula's (the best of a set of parametric families by KS, or the empirical
 * distribution): each numeric column goes through one to normal scores before CTGAN, and back after sampling. A
 * module rather than a runtime setter, because training runs in a worker thread that loads its own copy of it.
 */
export { fitMarginal, marginalFromJSON } from '../copula/marginals';
export type { Marginal, MarginalJSON } from '../copula/marginals';
