"""Memory the caller owns, seen from compiled code by its address (imported by the generated
module only, so only where numba is installed).

The compiled steps' generator (stepgen.py) takes the hand's buffer as an address and a length,
not as an array: numba counts a reference to every array a generator is given, and drops it
only when the generator runs to its end, so a hand left before its end (a clone, a search's
trial, a session closed mid-hand) would keep its buffer for ever (numba's known generator
leak). An array made from an address has no reference count; the Python side
(steps.CompiledHand) keeps the buffer alive as long as the generator, and never resizes it.
"""

from __future__ import annotations

import ctypes

from numba import config, types
from numba.extending import intrinsic


@intrinsic
def _int64s_at(typingctx, address):
    """The address (an int) as a pointer to int64s, for numba's `carray(pointer, n)`."""
    if not isinstance(address, types.Integer):
        return None
    pointer = types.CPointer(types.int64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(pointer))

    return pointer(address), codegen


def _int64s_at_plain(address: int):
    """The same pointer for the kernel run as plain Python (NUMBA_DISABLE_JIT), where
    `carray` takes a ctypes pointer."""
    return ctypes.cast(address, ctypes.POINTER(ctypes.c_int64))


int64s_at = _int64s_at_plain if config.DISABLE_JIT else _int64s_at
