import { isInfrastructureOutage } from './outage';

describe('isInfrastructureOutage', () => {
  it('knows a database or peer that is down', () => {
    expect(isInfrastructureOutage(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:54400'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isInfrastructureOutage({ name: 'QueryFailedError', message: 'x', driverError: { code: '57P01', message: 'terminating connection due to administrator command' } })).toBe(true);
    expect(isInfrastructureOutage(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isInfrastructureOutage(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'all failed'))).toBe(true);
    expect(isInfrastructureOutage(new Error('outer', { cause: { code: '08006' } }))).toBe(true);
  });

  it('does not mistake faults of the work or the data for one', () => {
    expect(isInfrastructureOutage(new TypeError('x is undefined'))).toBe(false);
    expect(isInfrastructureOutage({ message: 'invalid input syntax for type uuid', code: '22P02' })).toBe(false);
    expect(isInfrastructureOutage({ message: 'duplicate key', driverError: { code: '23505' } })).toBe(false);
    expect(isInfrastructureOutage(undefined)).toBe(false);
  });
});
