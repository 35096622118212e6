/** Whether a reported outcome is the predicted label: the same text, the same number ("1" and 1.0), or the same truth value. */
export function sameLabel(actual: unknown, predicted: unknown): boolean {
  const a = String(actual).trim();
  const p = String(predicted).trim();
  if (a === p) return true;
  if (a !== '' && p !== '' && Number.isFinite(Number(a)) && Number.isFinite(Number(p))) return Number(a) === Number(p);
  const truth = (s: string) => (/^(true|yes|t|y|1)$/i.test(s) ? true : /^(false|no|f|n|0)$/i.test(s) ? false : null);
  return truth(a) !== null && truth(a) === truth(p);
}
