import type { ApiClient } from './client';

/**
 * Checks a download's byte ranges against its whole body: a range (206 with Content-Range), a suffix, several ranges
 * (the whole file, 200) and one past the end (416 with `bytes *\/size`).
 */
export async function expectRangedDownload(client: ApiClient, url: string): Promise<void> {
  const whole = await client.request('GET', url, undefined, { raw: true });
  expect(whole.status).toBe(200);
  expect(whole.headers.get('accept-ranges')).toBe('bytes');
  const size = whole.raw!.length;
  expect(size).toBeGreaterThan(12);
  const part = await client.request('GET', url, undefined, { raw: true, headers: { range: 'bytes=4-11' } });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes 4-11/${size}`);
  expect(part.raw!.equals(whole.raw!.subarray(4, 12))).toBe(true);
  const tail = await client.request('GET', url, undefined, { raw: true, headers: { range: 'bytes=-5' } });
  expect(tail.status).toBe(206);
  expect(tail.raw!.equals(whole.raw!.subarray(size - 5))).toBe(true);
  const several = await client.request('GET', url, undefined, { raw: true, headers: { range: 'bytes=0-1,3-4' } });
  expect(several.status).toBe(200);
  expect(several.raw!.equals(whole.raw!)).toBe(true);
  const past = await client.request('GET', url, undefined, { headers: { range: `bytes=${size}-` } });
  expect(past.status).toBe(416);
  expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
  expect(past.body).toEqual({ detail: 'Range not satisfiable' });
}
