/**
 * Objects keyed by names users choose: column names, class labels, category values. A plain
 * `{}` inherits `__proto__`, `constructor`, `toString` and the rest of Object.prototype:
 * `o['__proto__'] = v` sets the prototype instead of adding a key (the column vanishes), and
 * `o['constructor']` on an object without that key finds Object's function. These helpers add
 * and read own properties only; `Object.fromEntries` and spreads are safe already.
 */

/** Adds `key` as an own enumerable property, whatever its name. */
export function setOwn<T>(o: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The value of an own property `key`, or undefined: inherited members never count. */
export function getOwn<T>(o: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}
