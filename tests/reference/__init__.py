"""Plain-numpy twins of every numba kernel (DESIGN §4).

Each kernel in ``fedtheory`` (a private function compiled with :func:`fedtheory._jit.njit`) has a
slow, obviously-correct numpy counterpart here, and a test compares the two on small inputs.
"""
