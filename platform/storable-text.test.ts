import { hasLoneSurrogate, storableText } from './storable-text';

describe('storable text', () => {
  it('finds unpaired surrogates, high or low, and leaves pairs (emoji) alone', () => {
    expect(['a\ud800', '\udc00b', 'x\ud800\ud800\udc00', '\ud83d\ude00\ude00'].map(hasLoneSurrogate)).toEqual([true, true, true, true]);
    expect(['', 'plain', 'emoji \u{1F600}', 'é\u0000'].map(hasLoneSurrogate)).toEqual([false, false, false, false]);
  });

  it('replaces NUL and unpaired surrogates with U+FFFD, and nothing else', () => {
    expect(storableText('a\ud800b\u0000c\udc00')).toBe('a\ufffdb\ufffdc\ufffd');
    expect(storableText('\ud800\ud83d\ude00')).toBe('\ufffd\u{1F600}');
    expect(storableText('emoji \u{1F600}')).toBe('emoji \u{1F600}');
    // What PostgreSQL's jsonb takes: JSON.stringify writes a lone surrogate as a \u escape jsonb refuses.
    expect(JSON.stringify(storableText('\udfff'))).toBe('"\ufffd"');
  });
});
