"""Declared count layouts: the named fields of an int64 count vector (what a block kernel returns), so that a
kernel writes each field at a constant offset and Python unpacks it by name, never by a bare slice.

    DEALS = Layout(("cells", (4, 4, 5, 7)), ("all_pass", 1), ("score_sum", 4), ("score_sq", 4))
    D_CELLS, D_ALL_PASS, D_SCORE_SUM, D_SCORE_SQ = DEALS.offsets()   # module constants the kernel reads
    agg = DEALS.unpack(counts)                                      # {"cells": int64[4, 4, 5, 7], ...}

A field is ``(name, length)`` or ``(name, shape)`` (unpacked to that shape); the offsets follow the order of
the declaration and are computed once.  Plain Python (no kernel reads a ``Layout``: kernels read the offsets)."""
import math


class Layout:
    """An ordered declaration of named fields, name -> length (or shape); ``size`` = the vector's length."""

    def __init__(self, *fields):
        self.fields = tuple((name, shape if isinstance(shape, tuple) else (int(shape),)) for name, shape in fields)
        self._off = {}
        k = 0
        for name, shape in self.fields:
            if name in self._off:
                raise ValueError(f"field {name!r} declared twice")
            self._off[name] = (k, math.prod(shape), shape)
            k += math.prod(shape)
        self.size = k

    def __len__(self):
        return self.size

    def names(self):
        return [name for name, _ in self.fields]

    def offset(self, name: str) -> int:
        return self._off[name][0]

    def length(self, name: str) -> int:
        return self._off[name][1]

    def offsets(self) -> tuple:
        """Every field's offset, in the order of the declaration."""
        return tuple(self._off[name][0] for name, _ in self.fields)

    def slice(self, name: str) -> slice:
        o, n, _ = self._off[name]
        return slice(o, o + n)

    def field(self, vec, name: str):
        """Field ``name`` of the count vector ``vec`` (in its declared shape)."""
        o, n, shape = self._off[name]
        v = vec[o:o + n]
        return v.reshape(shape) if len(shape) > 1 else v

    def value(self, vec, name: str) -> int:
        """A one-long field as a Python int."""
        o, n, _ = self._off[name]
        if n != 1:
            raise ValueError(f"field {name!r} holds {n} counts, not one")
        return int(vec[o])

    def unpack(self, vec) -> dict:
        """{name: field} of the count vector ``vec`` (at least ``size`` long: a block may append more)."""
        if len(vec) < self.size:
            raise ValueError(f"a count vector of {len(vec)} is shorter than its layout ({self.size})")
        return {name: self.field(vec, name) for name, _ in self.fields}

    def nth(self, vec, i: int, base: int = 0):
        """The ``i``-th of copies of this layout laid end to end from offset ``base`` of ``vec`` (one per choice of
        an odds vector)."""
        o = base + i * self.size
        return vec[o:o + self.size]

    def rest(self, vec):
        """What follows the declared fields in ``vec`` (a study's own sums appended after the kernel's)."""
        return vec[self.size:]
