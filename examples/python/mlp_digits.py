"""Encrypted neural-network inference on real data: a multilayer perceptron on
scikit-learn's handwritten digits.

Trains a 64-32-10 perceptron with a polynomial activation a(z) = z/2 + z^2/4
in plaintext (NumPy, full-batch Adam on softmax cross-entropy) on
scikit-learn's bundled `load_digits` (1797 8x8 images, 10 classes, 80/20
split), then classifies the test images under CKKS: each image takes a block
of 64 slots (its pixels / 16), 128 images per ciphertext; each layer is one
`W @ x` (applied to every 64-slot block: ckks.linear_transform of the
block-diagonal matrix, baby-step giant-step) plus a plaintext bias, the activation one `fhec.polyval`
(ckks.poly_eval). Prints the encrypted and plaintext accuracies, how many
predictions differ, the depth used, the time per image, and whether the
compiled module's output is bit-identical to fhec's GMP reference.

    .venv/bin/python examples/python/mlp_digits.py [--target cpu|cpu-avx512|auto] [--logN 14]

Parameters: N = 2^14, Q = 2^200, p = 2^30: keys mod Q^2 = 2^400, within the HE
Standard's 128-bit bound for N = 2^14 (438 bits); 8192 slots, 128 images per
ciphertext, depth 4 (matrix, activation 2, matrix).
"""

import argparse
import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import fhec

BLOCK = 64  # slots per image: 8 x 8 pixels
HIDDEN, CLASSES = 32, 10
ACTIVATION = [0.0, 0.5, 0.25]  # a(z) = z/2 + z^2/4, lowest degree first


def activation(z):
    return np.polynomial.polynomial.polyval(z, ACTIVATION)


def train(X, y, epochs=400, lr=0.01, seed=0):
    """(W1, b1, W2, b2) of the perceptron, by full-batch Adam on softmax cross-entropy."""
    rng = np.random.default_rng(seed)
    params = [rng.normal(0, 1 / 8, (HIDDEN, BLOCK)), np.zeros(HIDDEN),
              rng.normal(0, 1 / np.sqrt(HIDDEN), (CLASSES, HIDDEN)), np.zeros(CLASSES)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    onehot = np.eye(CLASSES)[y]
    for t in range(1, epochs + 1):
        W1, b1, W2, b2 = params
        z1 = X @ W1.T + b1
        a1 = activation(z1)
        logits = a1 @ W2.T + b2
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        g = (p - onehot) / len(X)
        ga1 = g @ W2
        gz1 = ga1 * (ACTIVATION[1] + 2 * ACTIVATION[2] * z1)
        grads = [gz1.T @ X, gz1.sum(axis=0), g.T @ a1, g.sum(axis=0)]
        for i, gr in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * gr
            v[i] = 0.999 * v[i] + 0.001 * gr * gr
            params[i] -= lr * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
    return params


def predict(params, X):
    W1, b1, W2, b2 = params
    return np.argmax(activation(X @ W1.T + b1) @ W2.T + b2, axis=1)


def pack(X, slots):
    """Images (rows of X) into ciphertext slot vectors, BLOCK slots each."""
    per = slots // BLOCK
    out = []
    for i in range(0, len(X), per):
        v = np.zeros(slots)
        chunk = X[i:i + per]
        v[: chunk.size] = chunk.ravel()
        out.append(v)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="auto", help="cpu, cpu-avx512 or auto (default)")
    ap.add_argument("--logN", type=int, default=14, help="log2 of the ring dimension (default 14; below is insecure)")
    args = ap.parse_args(argv)

    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    model = train(X_train, y_train)
    W1, b1, W2, b2 = model
    plain_pred = predict(model, X_test)

    security = "128" if args.logN >= 14 else "none"
    params = fhec.Params(logN=args.logN, logQ=200, logp=30, security=security)
    slots = params.slots
    # W @ x multiplies every block of B = max(rows, columns) slots (rounded up
    # to a power of two): W2's columns padded to 64 keep the 64-slot blocks.
    W2pad = np.pad(W2, ((0, 0), (0, BLOCK - HIDDEN)))
    bias1 = np.tile(np.pad(b1, (0, BLOCK - HIDDEN)), slots // BLOCK)
    bias2 = np.tile(np.pad(b2, (0, BLOCK - CLASSES)), slots // BLOCK)

    t0 = time.perf_counter()

    @fhec.compile(params, target=args.target)
    def mlp(x):
        h = W1 @ x + bias1
        a = fhec.polyval(h, ACTIVATION)
        return W2pad @ a + bias2

    print(f"traced and compiled in {time.perf_counter() - t0:.1f} s for {mlp.target}: "
          f"{mlp.mlir.count('ckks.linear_transform')} linear transforms, {len(mlp.galois_elements)} rotation keys")
    ctx = fhec.Context(params)
    batches = pack(X_test, slots)
    cts = [ctx.encrypt(v) for v in batches]
    mlp(cts[0])  # rotation keys and the executor, outside the timing
    t0 = time.perf_counter()
    outs = [mlp(c) for c in cts]
    elapsed = time.perf_counter() - t0
    exact = outs[0] == mlp.reference(cts[0])

    scores = np.concatenate([ctx.decrypt(o).real.reshape(-1, BLOCK)[:, :CLASSES] for o in outs])[: len(X_test)]
    enc_pred = np.argmax(scores, axis=1)
    enc_acc, plain_acc = np.mean(enc_pred == y_test), np.mean(plain_pred == y_test)
    differ = int(np.sum(enc_pred != plain_pred))
    print(f"N = 2^{args.logN}, {slots} slots, {slots // BLOCK} images per ciphertext, {len(cts)} ciphertexts; "
          f"depth used: {(params.logQ - outs[0].logq) // params.logp}")
    print(f"accuracy: encrypted {enc_acc:.4f}, plaintext model {plain_acc:.4f} ({len(X_test)} test images)")
    print(f"predictions that differ from the plaintext model: {differ} ({100 * differ / len(X_test):.2f}%)")
    print(f"time per image: {1e3 * elapsed / len(X_test):.2f} ms ({elapsed:.2f} s for {len(cts)} ciphertexts, "
          f"{mlp.target})")
    print(f"bit-identical to the GMP reference: {'yes' if exact else 'NO'}")
    ok = exact and abs(enc_acc - plain_acc) <= 0.01 and differ <= 0.01 * len(X_test)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
