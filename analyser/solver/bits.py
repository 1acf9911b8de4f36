"""Single-instruction bit operations for numba code (LLVM ctpop / cttz / ctlz).

numba exposes no popcount or count-zeros on integers; these intrinsics compile to one
machine instruction each, which matters in a search that runs them millions of times.
They can only be called from jitted code.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from analyser.solver.jit import finish_module


def _unary_intrinsic(name: str, with_flag: bool):
    @intrinsic
    def _impl(typingctx, x):
        if not isinstance(x, types.Integer):
            return None
        sig = types.int64(x)

        def codegen(context, builder, signature, args):
            [value] = args
            if with_flag:
                fn = builder.module.declare_intrinsic(name, [value.type, ir.IntType(1)])
                # flag 0: defined result for a zero input (bit width)
                result = builder.call(fn, [value, ir.Constant(ir.IntType(1), 0)])
            else:
                fn = builder.module.declare_intrinsic(name, [value.type])
                result = builder.call(fn, [value])
            return context.cast(builder, result, x, types.int64)

        return sig, codegen

    return _impl


popcount = _unary_intrinsic("llvm.ctpop", with_flag=False)
popcount.__doc__ = "Number of set bits of an integer (jitted code only)."

ctz = _unary_intrinsic("llvm.cttz", with_flag=True)
ctz.__doc__ = "Index of the lowest set bit (the bit width for 0; jitted code only)."

clz = _unary_intrinsic("llvm.ctlz", with_flag=True)
clz.__doc__ = "Number of leading zero bits (the bit width for 0; jitted code only)."


SUITM = 0x1FFF  # the 13 rank bits of one suit's 16-bit field


@njit(cache=True)
def hibit(x):
    """Index of the highest set bit of a non-zero int64."""
    return 63 - clz(x)


# Wrapping int64 arithmetic for hashes and packed keys. numba compiles int64 + and * with
# LLVM's "no signed wrap" flag, so an overflow is undefined behaviour that the optimiser may
# exploit once a call is inlined: tt_bucket gave one bucket in the search and another inside
# move_entries, for the same key and aux. The same operations in uint64 carry no such flag;
# the casts between int64 and uint64 keep the bits.


@njit(cache=True, _nrt=False, forceinline=True)
def wrap_mul(a, b):
    """``a * b`` modulo 2**64, as int64."""
    return np.int64(np.uint64(a) * np.uint64(b))


@njit(cache=True, _nrt=False, forceinline=True)
def wrap_add(a, b):
    """``a + b`` modulo 2**64, as int64."""
    return np.int64(np.uint64(a) + np.uint64(b))


@njit(cache=True, _nrt=False, forceinline=True)
def wrap_shl(a, k):
    """``a << k`` modulo 2**64 (bits may reach the sign bit), as int64."""
    return np.int64(np.uint64(a) << np.uint64(k))


@njit(cache=True)
def suit_bits(h, s):
    """The 13-bit holding of suit ``s`` in hand mask ``h``."""
    return (h >> (16 * s)) & SUITM


# cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
