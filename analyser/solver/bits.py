"""Single-instruction bit operations for numba code (LLVM ctpop / cttz / ctlz), wrapping
int64 arithmetic, and the hash of four hands that the solver's smaller tables share.

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


def _binary_intrinsic(name: str):
    @intrinsic
    def _impl(typingctx, x, m):
        if not (isinstance(x, types.Integer) and isinstance(m, types.Integer)):
            return None
        sig = types.int64(x, m)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = builder.module.declare_intrinsic(name, fnty=ir.FunctionType(i64, [i64, i64]))
            a = context.cast(builder, args[0], x, types.int64)
            b = context.cast(builder, args[1], m, types.int64)
            return builder.call(fn, [a, b])

        return sig, codegen

    return _impl


@njit(cache=True, _nrt=False, forceinline=True)
def _gather_loop(x, m):
    r = 0
    k = 0
    while m:
        low = m & -m
        if x & low:
            r |= 1 << k
        k += 1
        m ^= low
    return r


@njit(cache=True, _nrt=False, forceinline=True)
def _scatter_loop(x, m):
    r = 0
    while m:
        low = m & -m
        if x & 1:
            r |= low
        x >>= 1
        m ^= low
    return r


def _microcoded(cpu_name: str) -> bool:
    """AMD before Zen 3 (``znver1``, ``znver2``, ``bdver*``): PEXT/PDEP are microcode of a
    few hundred cycles there."""
    return cpu_name.startswith(("znver1", "znver2", "bdver"))


def gather_in_hardware(cpu_name: str, features: str) -> bool:
    """Do BMI2's PEXT/PDEP run as fast instructions on this target (an LLVM processor name
    and feature string)? Not where the target lacks BMI2, nor where they are microcoded."""
    return "+bmi2" in features.split(",") and not _microcoded(cpu_name)


def _target_gathers() -> bool:
    """gather_in_hardware for the processor numba compiles for, named and featured as
    numba's own code generator takes them: NUMBA_CPU_NAME or else the host's name,
    NUMBA_CPU_FEATURES when set or else the host's features (a portable or a valgrind
    build sets them). Never on a processor other than x86-64."""
    from llvmlite import binding
    from numba.core import codegen, config

    triple = binding.get_process_triple()
    if not triple.startswith("x86_64"):
        return False
    host = binding.get_host_cpu_name()
    name = config.CPU_NAME if config.CPU_NAME and config.CPU_NAME != "host" else host
    features = config.CPU_FEATURES
    if features is None:
        features = codegen.get_host_cpu_features()
    # the code runs here: a Zen 2 compiling for another name still runs microcoded PEXT
    return gather_in_hardware(name, features) and not _microcoded(host)


GATHER_IN_HARDWARE = _target_gathers()
if GATHER_IN_HARDWARE:
    gather = _binary_intrinsic("llvm.x86.bmi.pext.64")
    scatter = _binary_intrinsic("llvm.x86.bmi.pdep.64")
else:
    gather = _gather_loop
    scatter = _scatter_loop
gather.__doc__ = """The bits of ``x`` where ``m`` has a set bit, packed from bit 0 up (BMI2's
PEXT; jitted code only)."""
scatter.__doc__ = """The low bits of ``x`` placed in turn at the set bits of ``m``, from the lowest
up (BMI2's PDEP; jitted code only)."""


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


# odd multipliers of the hashes (the 64-bit golden ratio and SplitMix64's first constant)
HASH_M1 = np.uint64(0x9E3779B97F4A7C15)
HASH_M2 = np.uint64(0xBF58476D1CE4E5B9)


# inlined, as each table's own copy of this hash was before it was shared
@njit(cache=True, _nrt=False, forceinline=True)
def hands_slot(h0, h1, h2, h3, aux, nbits):
    """A slot 0 .. 2**nbits - 1 for four hand masks and a word ``aux`` (0 for none): a
    multiplicative hash finished as SplitMix64 does. The smaller misère game's memo
    (misere_proof.py) and the joined search's table (joined_table.py) use it."""
    z = wrap_add(
        wrap_add(wrap_mul(h0, HASH_M1), wrap_mul(h1, 0x9E3779B1)),
        wrap_add(wrap_mul(h2, HASH_M2), wrap_mul(h3, 31)),
    )
    z = wrap_add(z, wrap_mul(aux, 0x632BE59BD9B4E019))
    z ^= z >> 29
    z = wrap_mul(z, HASH_M2)
    z ^= z >> 32
    return z & ((1 << nbits) - 1)


# cache keyed on the solver's sources (analyser/solver/jit.py)
finish_module(globals())
