/** Special functions the variational mixture needs: the copula's (checked against SciPy there). */
import { digamma, logGamma } from '../copula/special';

export { digamma, logGamma as lgamma };

/** ln B(a, b). */
export function betaln(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}
