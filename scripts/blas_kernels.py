"""Print the OpenBLAS kernel (``OPENBLAS_CORETYPE``) that ``make unit-kernels`` forces: the
newest x86 kernel this CPU can execute that is not the one OpenBLAS picks here by itself (the
unit tests already ran under that one), so that the design solver's tests run under two kernels
on every machine: SkylakeX and Haswell on an AVX-512 CPU, Haswell's AVX2 kernels and Sandybridge
on an AVX2 one. OpenBLAS runs a forced kernel without checking the CPU, so only kernels whose
instructions /proc/cpuinfo lists are candidates. Prints nothing off x86-64."""

from __future__ import annotations

import ctypes
import glob
import os
import platform

#: OpenBLAS's x86 kernels, oldest first, with the CPU flag each needs (Prescott: any x86-64).
KERNELS = (("Prescott", None), ("Sandybridge", "avx"), ("Haswell", "avx2"),
           ("SkylakeX", "avx512f"))
#: Core names OpenBLAS reports that run another kernel's code (Zen runs Haswell's kernels;
#: Cooper Lake and Sapphire Rapids SkylakeX's).
FAMILY = {"zen": "Haswell", "cooperlake": "SkylakeX", "sapphirerapids": "SkylakeX"}


def runnable_kernels() -> list[str]:
    """The kernels this CPU can execute, oldest first (none off x86-64)."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return []
    try:
        with open("/proc/cpuinfo") as fh:
            flags = set(next(ln for ln in fh if ln.startswith("flags")).split(":")[1].split())
    except (OSError, StopIteration):
        return []
    return [kernel for kernel, flag in KERNELS if flag is None or flag in flags]


def native_corename() -> str | None:
    import numpy as np

    for path in glob.glob(os.path.join(os.path.dirname(np.__file__) + ".libs", "*openblas*")):
        lib = ctypes.CDLL(path)
        for sym in ("scipy_openblas_get_corename64_", "openblas_get_corename"):
            if hasattr(lib, sym):
                f = getattr(lib, sym)
                f.restype = ctypes.c_char_p
                return f().decode()
    return None


def forced_kernel() -> str | None:
    native = (native_corename() or "").lower()
    native = FAMILY.get(native, native).lower()
    others = [k for k in runnable_kernels() if k.lower() != native]
    return others[-1] if others else None


if __name__ == "__main__":
    print(forced_kernel() or "")
