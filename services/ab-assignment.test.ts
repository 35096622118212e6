import { assignVariant } from './ab-assignment';

const variants = [
  { name: 'control', deployment_id: 'a', weight: 1 },
  { name: 'treatment', deployment_id: 'b', weight: 3 },
];

describe('assignVariant', () => {
  test('the same key always gets the same variant; another test spreads keys independently', () => {
    for (let i = 0; i < 50; i++) expect(assignVariant('t1', `k${i}`, variants)).toBe(assignVariant('t1', `k${i}`, variants));
    const a = Array.from({ length: 2000 }, (_, i) => assignVariant('t1', `k${i}`, variants).name);
    const b = Array.from({ length: 2000 }, (_, i) => assignVariant('t2', `k${i}`, variants).name);
    const agree = a.filter((v, i) => v === b[i]).length / a.length;
    // Independent 25/75 splits agree on 0.25² + 0.75² = 62.5% of keys.
    expect(agree).toBeGreaterThan(0.58);
    expect(agree).toBeLessThan(0.67);
  });

  test('keys split by weight', () => {
    const n = 20_000;
    const treated = Array.from({ length: n }, (_, i) => assignVariant('t', `user-${i}`, variants)).filter((v) => v.name === 'treatment').length;
    expect(treated / n).toBeGreaterThan(0.74);
    expect(treated / n).toBeLessThan(0.76);
    const three = [...variants, { name: 'third', deployment_id: 'c', weight: 0.000001 }];
    expect(Array.from({ length: 1000 }, (_, i) => assignVariant('t', `u${i}`, three).name)).not.toContain(undefined);
  });
});
