"""Shared fixtures of the Python frontend's tests: small parameter sets (fast
to compile and run; security opted out explicitly) and their contexts."""

import numpy as np
import pytest

import fhec


def ct_type(logN, logq, logp, slots):
    return f"!ckks.ct<logN = {logN}, logq = {logq}, logp = {logp}, slots = {slots}>"


@pytest.fixture(scope="session")
def small():
    """N = 2^10, Q = 2^150, p = 2^30, 8 slots: depth 4."""
    return fhec.Params(logN=10, logQ=150, logp=30, slots=8, security="none")


@pytest.fixture(scope="session")
def small_ctx(small):
    return fhec.Context(small)


@pytest.fixture
def rng():
    return np.random.default_rng(20261123)
