"""Memory the caller owns, seen from compiled code by its address (imported by the generated
module only, so only where numba is installed): `int64s_at` for the compiled steps' buffer,
`ptr` for the arrays the rules agent's function is given at each decision (strategy.py); and
`lowest`, the number of a mask's lowest set bit in one instruction (the kernel's `_low`).

The compiled steps' generator (stepgen.py) takes the hand's buffer as an address and a length,
not as an array: numba counts a reference to every array a generator is given, and drops it
only when the generator runs to its end, so a hand left before its end (a clone, a search's
trial, a session closed mid-hand) would keep its buffer for ever (numba's known generator
leak). An array made from an address has no reference count; the Python side
(steps.CompiledHand) keeps the buffer alive as long as the generator, and never resizes it.
"""

from __future__ import annotations

import ctypes

from llvmlite import ir
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


@intrinsic
def _ptr(typingctx, x):
    """A one-dimensional contiguous array's items as a pointer to them (a pointer: itself).
    A function compiled on its own is given this in place of the array: numba passes an array
    as seven values (its data, shape, strides, ...) on the stack, a pointer in one register.
    The function indexes the pointer as it would the array, with no negative index counted
    from the end and no bounds (the kernel computes every index it reads, and numba checks no
    bounds of an array either)."""
    if isinstance(x, types.CPointer):
        def same(context, builder, signature, args):
            return args[0]

        return x(x), same
    if not isinstance(x, types.Array) or x.ndim != 1 or x.layout != "C":
        return None
    pointer = types.CPointer(x.dtype)

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return pointer(x), codegen


def _ptr_plain(x):
    """The kernel run as plain Python (NUMBA_DISABLE_JIT): the array itself, which the
    function indexes as it would the pointer."""
    return x


ptr = _ptr_plain if config.DISABLE_JIT else _ptr


@intrinsic
def _lowest(typingctx, m):
    """The number of the lowest set bit of an int m that is not 0: LLVM's count of trailing
    zeros, one instruction (`tzcnt`) where a de Bruijn multiply and a table look-up took three
    and a load. The kernel asks it only of a mask it has tested (`while m:`), and its answer
    for 0 is undefined."""
    if not isinstance(m, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        x = context.cast(builder, args[0], signature.args[0], types.int64)
        return builder.cttz(x, ir.Constant(ir.IntType(1), 1))

    return types.int64(m), codegen


def _lowest_plain(m) -> int:
    """The same for the kernel run as plain Python (NUMBA_DISABLE_JIT, and the tabulated
    terms worked out by kernel._evaluator), where m may be one of numpy's ints."""
    m = int(m)
    return (m & -m).bit_length() - 1


lowest = _lowest_plain if config.DISABLE_JIT else _lowest
