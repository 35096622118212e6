import { isCron } from './retraining.schema';

describe('isCron', () => {
  it('takes five-field crons with numbers, ranges, lists and steps, and the @-macros', () => {
    for (const c of ['0 3 * * *', '*/15 * * * *', '0 0-6/2 1,15 * 1-5', '59 23 31 12 6', '@daily', '@hourly', '  5 4 * * 0 ']) expect([c, isCron(c)]).toEqual([c, true]);
  });

  it('refuses values out of range, inverted ranges, zero steps, other field counts and words', () => {
    for (const c of ['60 * * * *', '* 24 * * *', '* * 0 * *', '* * * 13 *', '* * * * 7', '5-1 * * * *', '*/0 * * * *', '* * * *', '* * * * * *', 'every day', '@every 5m', 'MON * * * *', ''])
      expect([c, isCron(c)]).toEqual([c, false]);
  });
});
