import type { KeyRevocation, KeyRevocationFeed } from '../key-revocations';
import { parseRevocation } from '../key-revocations';
import type { Principal } from '../context';
import { KeyCache } from './authenticate';

/** A broadcast without a database: what was published, and whether the listener is caught up. */
class FakeFeed implements KeyRevocationFeed {
  published: KeyRevocation[] = [];
  listening = true;
  async publish(r: KeyRevocation): Promise<void> {
    this.published.push(r);
  }
  async caughtUp(): Promise<boolean> {
    return this.listening;
  }
}

const principalOf = (userId: string, prefix: string) => ({ user: { id: userId }, via: 'api_key', apiKey: { prefix } }) as unknown as Principal;

/** A loader that counts its calls. */
function loader(p: Principal) {
  const l = { calls: 0, load: async () => (l.calls++, p) };
  return l;
}

describe('KeyCache', () => {
  it('serves a cached principal, and drops it on a revocation of its key or its user, here and in what it publishes', async () => {
    const feed = new FakeFeed();
    const cache = new KeyCache(feed);
    const a = loader(principalOf('u1', 'pa'));
    const b = loader(principalOf('u2', 'pb'));
    await cache.principal('pa', a.load);
    await cache.principal('pa', a.load);
    await cache.principal('pb', b.load);
    expect([a.calls, b.calls]).toEqual([1, 1]);

    await cache.forget('pa');
    await cache.principal('pa', a.load);
    await cache.principal('pb', b.load);
    expect([a.calls, b.calls]).toEqual([2, 1]);

    cache.apply({ userId: 'u2' }); // published by another process
    await cache.principal('pb', b.load);
    expect(b.calls).toBe(2);
    await cache.forgetUser('u1');
    expect(feed.published).toEqual([{ prefixes: ['pa'] }, { userId: 'u1' }]);
  });

  it('looks keys up afresh while the broadcast is not listening, and after a gap starts empty', async () => {
    const feed = new FakeFeed();
    const cache = new KeyCache(feed);
    const a = loader(principalOf('u1', 'pa'));
    await cache.principal('pa', a.load);
    feed.listening = false;
    await cache.principal('pa', a.load);
    await cache.principal('pa', a.load);
    expect(a.calls).toBe(3);
    feed.listening = true;
    cache.clear();
    await cache.principal('pa', a.load);
    await cache.principal('pa', a.load);
    expect(a.calls).toBe(4);
  });

  it('does not keep a principal whose load overlapped a revocation (it may have read the key before it)', async () => {
    const cache = new KeyCache(new FakeFeed());
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const slow = async () => {
      calls++;
      await gate;
      return principalOf('u1', 'pa');
    };
    const inFlight = cache.principal('pa', slow);
    await new Promise((r) => setImmediate(r));
    cache.apply({ prefixes: ['pa'] });
    release();
    await inFlight;
    await cache.principal('pa', slow);
    expect(calls).toBe(2);
  });

  it('reads only the payloads it publishes', () => {
    expect(parseRevocation(JSON.stringify({ prefixes: ['a', 'b'] }))).toEqual({ prefixes: ['a', 'b'] });
    expect(parseRevocation(JSON.stringify({ userId: 'u' }))).toEqual({ userId: 'u' });
    for (const bad of ['', 'not json', '{"prefixes":[1]}', '{"userId":5}', 'null', '[]']) expect(parseRevocation(bad)).toBeNull();
  });
});
