"""The examples run and report what they promise (on the cpu target)."""

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", script), *args],
                          capture_output=True, text=True, timeout=900)


def test_logistic_regression():
    r = run("logistic_regression.py", "--target", "cpu")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert "bit-identical to the GMP reference: yes" in out, out
    differ = int(re.search(r"predictions that differ from the plaintext model: (\d+)", out).group(1))
    assert differ <= 1, out
    enc, plain = map(float, re.search(r"accuracy: encrypted ([\d.]+), plaintext model ([\d.]+)", out).groups())
    assert enc >= 0.9 and abs(enc - plain) <= 1 / 114 + 1e-9, out
    # The encryption's own error is tiny; the approximation's is the polynomial's
    # (~0.3). The encryption error comes from fresh CSPRNG noise each run: seen
    # between 2e-5 and 1.2e-4 over ten runs, so 1e-4 was a flaky bound; a broken
    # encryption or evaluation gives errors of order 1.
    assert float(re.search(r"plaintext polynomial score\|: ([\d.e+-]+)", out).group(1)) < 1e-3, out


def test_mlp_digits():
    """Encrypted MLP inference (W @ x, polyval) agrees with the plaintext model."""
    r = run("mlp_digits.py", "--target", "cpu")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert "bit-identical to the GMP reference: yes" in out, out
    enc, plain = map(float, re.search(r"accuracy: encrypted ([\d.]+), plaintext model ([\d.]+)", out).groups())
    assert plain >= 0.9 and abs(enc - plain) <= 0.01, out
    differ = int(re.search(r"predictions that differ from the plaintext model: (\d+)", out).group(1))
    assert differ <= 0.01 * 360, out


def test_polynomial():
    r = run("polynomial.py", "--target", "cpu")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ckks.rescale" in r.stdout and "max error against NumPy" in r.stdout
    # polyval's baby-step giant-step sequence takes one level less than Horner's rule.
    assert "Horner: result at logq = 80 (4 levels)" in r.stdout, r.stdout
    assert "polyval: result at logq = 110 (3 levels)" in r.stdout, r.stdout


def test_client_server():
    """Two processes: the server runs the function with the public, evaluation
    and rotation keys only; decrypt raises there; no secret key file is read."""
    r = run("client_server.py", "--target", "cpu")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert "server: decrypt raises MissingKeyError" in out, out
    assert "no secret key" in out and "client/server: ok" in out, out
    assert "sk.bin" not in out.split("files:")[1].splitlines()[0], out
    err = float(re.search(r"max error against the plaintext computation ([\d.e+-]+)", out).group(1))
    assert err < 1e-3, out


def test_logistic_regression_training():
    """Encrypted HELR training, one bootstrap per iteration, at logN 12."""
    r = run("logistic_regression_training.py", "--logN", "12", "--iterations", "3", "--target", "cpu", "--reference")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert "iterations: 3, bootstraps used: 3" in out, out
    assert "last iteration bit-identical to the GMP reference: yes" in out, out
    enc, poly = map(float, re.search(r"test accuracy: encrypted ([\d.]+), plaintext \(same polynomial\) ([\d.]+)",
                                     out).groups())
    assert enc >= 0.85 and abs(enc - poly) <= 0.01, out
    assert float(re.search(r"max \|w encrypted - w plaintext\|: ([\d.e+-]+)", out).group(1)) < 1e-2, out
