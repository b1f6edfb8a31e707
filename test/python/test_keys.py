"""The client/server split: contexts without the secret key, key files and
bytes, keys made ahead of time, parameters from a depth."""

import os

import numpy as np
import pytest

import fhec


@pytest.fixture(scope="module")
def f(small):
    @fhec.compile(small, target="cpu")
    def f(x, y):
        return x * y + y.rotate(1)
    return f


def test_server_runs_without_the_secret_key(small, f, rng, tmp_path):
    client = fhec.Context(small)
    assert client.has_secret_key and client.has_public_key and client.has_evaluation_key
    assert client.keys_for(f) == f.galois_elements
    x, y = rng.uniform(-1, 1, (2, small.slots))
    client.save(tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["evk.bin", "params.bin", "pk.bin"] + [f"rk{g}.bin" for g in f.galois_elements]
    server = fhec.Context.load(tmp_path, params=small)
    assert not server.has_secret_key and server.key_set == client.key_set
    out = f(server.ciphertext_from_bytes(client.encrypt(x).to_bytes()),
            server.ciphertext_from_bytes(client.encrypt(y).to_bytes()))
    with pytest.raises(fhec.MissingKeyError, match="no secret key"):
        server.decrypt(out)
    with pytest.raises(fhec.MissingKeyError, match="rotation keys are made by the key owner"):
        server.keys_for(fhec.compile(small, target="cpu")(lambda a: a.rotate(3)))
    back = client.ciphertext_from_bytes(out.to_bytes())
    assert np.abs(client.decrypt(back) - (x * y + np.roll(y, -1))).max() < 1e-3
    # The server encrypts too (it holds the public key), and its results are
    # the GMP reference's bit for bit.
    c = server.encrypt(x)
    assert f(c, c) == f.reference(c, c)


def test_public_context_only_encrypts(small, f, rng):
    client = fhec.Context(small)
    public = client.public()
    assert public.has_public_key and not public.has_secret_key and not public.has_evaluation_key
    x = rng.uniform(-1, 1, small.slots)
    c = public.encrypt(x)
    assert np.abs(client.decrypt(client.ciphertext_from_bytes(c.to_bytes())) - x).max() < 1e-4
    with pytest.raises(fhec.MissingKeyError, match="no secret key"):
        public.decrypt(c)
    with pytest.raises(fhec.MissingKeyError, match="lacks the rotation keys"):
        f(c, c)
    g = fhec.compile(small, target="cpu")(lambda a, b: a * b)
    with pytest.raises(fhec.FhecError, match="lack the evaluation key"):
        g(c, c)


def test_bytes_round_trip_and_refusals(small, rng, tmp_path):
    client = fhec.Context(small)
    client.add_rotation_keys([5])
    full = fhec.Context.from_bytes(client.to_bytes(secret=True), params=small)
    assert full.has_secret_key and full.galois_elements == [5] and full.key_set == client.key_set
    x = rng.uniform(-1, 1, small.slots)
    assert np.abs(full.decrypt(client.encrypt(x)) - x).max() < 1e-4
    server = fhec.Context.from_bytes(client.to_bytes())
    assert not server.has_secret_key and server.has_evaluation_key
    with pytest.raises(fhec.ParameterError, match="truncated or corrupted"):
        fhec.Context.from_bytes(client.to_bytes()[:-10])
    with pytest.raises(fhec.ParameterError, match="not a key container"):
        fhec.Context.from_bytes(b"nonsense")
    with pytest.raises(fhec.ParameterError, match="the keys were made for"):
        fhec.Context.from_bytes(client.to_bytes(), params=fhec.Params(11, 150, 30, security="none"))
    # A rotation key of another key generation in the directory is refused,
    # naming the files.
    client.save(tmp_path)
    other = fhec.Context(small)
    other.add_rotation_keys([25])
    other.save(tmp_path / "other")
    os.replace(tmp_path / "other" / "rk25.bin", tmp_path / "rk25.bin")
    with pytest.raises(fhec.FhecError, match=r"rk25.bin belongs to key set .*pk.bin to key set"):
        fhec.Context.load(tmp_path)
    os.remove(tmp_path / "rk25.bin")
    # sk.bin only with secret=True (mode 0600), and read only with secret=True.
    client.save(tmp_path, secret=True)
    assert oct(os.stat(tmp_path / "sk.bin").st_mode & 0o777) == "0o600"
    assert fhec.Context.load(tmp_path).has_secret_key
    assert not fhec.Context.load(tmp_path, secret=False).has_secret_key
    # A ciphertext of another key set does not decrypt.
    with pytest.raises(fhec.FhecError, match="belongs to key set"):
        client.decrypt(other.encrypt(x))


def test_reference_arithmetic_matches_the_kernels(small, rng):
    """Contexts on the GMP reference and on the client kernels interoperate:
    each decrypts the other's ciphertexts of one key set."""
    kernels = fhec.Context(small, target="cpu")
    reference = fhec.Context.from_bytes(kernels.to_bytes(secret=True), params=small, reference=True)
    x = rng.uniform(-1, 1, small.slots)
    assert np.abs(reference.decrypt(kernels.encrypt(x)) - x).max() < 1e-4
    assert np.abs(kernels.decrypt(reference.encrypt(x)) - x).max() < 1e-4


def test_params_for_depth():
    p = fhec.Params.for_depth(5, scale_bits=30)
    assert (p.logN, p.logQ, p.logp, p.security) == (14, 190, 30, "128")
    assert p.security_estimate[0] >= 128
    # One less ring dimension would not be secure.
    assert fhec.Params(p.logN - 1, p.logQ, p.logp).security_estimate[0] < 128
    assert fhec.Params.for_depth(5, 30, security="192").logN == 15
    with pytest.raises(fhec.ParameterError, match="no ring up to N = 2\\^17"):
        fhec.Params.for_depth(100, 40)
    with pytest.raises(fhec.ParameterError, match="needs a level"):
        fhec.Params.for_depth(3, 30, security="none")


def test_the_secret_is_a_parameter(small, rng):
    """The uniform ternary secret is the default; HEAAN's sparse one is asked
    for with its weight; keys of one are refused for the other, naming both;
    each decrypts through the client kernels and the reference alike."""
    assert (small.secret, small.h) == ("ternary", None)
    sparse = fhec.Params(logN=10, logQ=150, logp=30, slots=8, security="none", secret="sparse", h=64)
    assert (sparse.secret, sparse.h) == ("sparse", 64) and sparse != small
    assert "secret='sparse', h=64" in repr(sparse)
    with pytest.raises(fhec.ParameterError, match="'dense' is not a secret distribution"):
        fhec.Params(10, 150, 30, secret="dense")
    with pytest.raises(fhec.ParameterError, match="h = 64 is set for a uniform ternary secret"):
        fhec.Params(10, 150, 30, h=64)
    with pytest.raises(fhec.ParameterError, match="Hamming weight h = 0 must be in"):
        fhec.Params(10, 150, 30, secret="sparse")
    x = rng.uniform(-1, 1, 8)
    for p in (small, sparse):
        ctx = fhec.Context(p, target="cpu")
        ref = fhec.Context.from_bytes(ctx.to_bytes(secret=True), params=p, reference=True)
        assert np.abs(ref.decrypt(ctx.encrypt(x)) - x).max() < 1e-4
        assert np.abs(ctx.decrypt(ref.encrypt(x)) - x).max() < 1e-4
    with pytest.raises(fhec.ParameterError, match="secret=sparse h=64.*secret='ternary'"):
        fhec.Context.from_bytes(fhec.Context(sparse).to_bytes(), params=small)
