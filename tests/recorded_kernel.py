"""The OpenBLAS kernel under which the recorded trajectories were made, and running a test
module under it.

A recorded trajectory is a function of the code *and* of OpenBLAS's kernel: the engine calls
LAPACK (``np.linalg.inv`` of :math:`V_t` at powers of 2, ``eigvalsh`` in Lazy TaS's forced
exploration, the designs of the Soare algorithms), and a decision that is a near tie goes either
way by the last bits of the kernel. On this project's machines: Lazy TaS's first
forced-exploration check was an exact tie computed two ways, which SkylakeX's kernel (AVX-512)
broke the other way (36 recorded cases; since fixed in :mod:`bai.algorithms.lazy_tas`, the two
sides now computed alike); XY-static (phased)'s counts on soare_d4_w0.4 differ under SkylakeX;
4 Top Two cases differ under Prescott's kernel (SSE only). So the recordings
(``tests/glr_identity.py``, ``tests/rng_golden.py``) name their kernel, and on a CPU whose kernel
is another their cases run in a subprocess under the recording's (OpenBLAS executes a forced
kernel without checking the CPU: only a kernel whose instructions the CPU has is forced; else the
cases are skipped with the reason).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import blas_kernels  # noqa: E402  (scripts/: the kernels this CPU can execute)

#: the kernel of the machines the recordings were made on (AMD EPYC, AVX2: Zen runs Haswell's)
RECORDED = "Haswell"


def current() -> str:
    """The kernel family this process runs: ``OPENBLAS_CORETYPE`` when forced, else the one
    OpenBLAS picked for this CPU."""
    forced = os.environ.get("OPENBLAS_CORETYPE")
    name = forced or blas_kernels.native_corename() or ""
    return blas_kernels.FAMILY.get(name.lower(), name)


def elsewhere(kernel: str = RECORDED) -> bool:
    """Whether this process runs another kernel than ``kernel``."""
    return current().lower() != kernel.lower()


def why_skipped(kernel: str = RECORDED) -> str:
    return (f"recorded under OpenBLAS's {kernel} kernel, this process runs {current() or '?'}: "
            f"the cases run in a subprocess under {kernel} (test_*_under_the_recording_kernel)")


def run_module_under(path: str, select: str, kernel: str = RECORDED) -> None:
    """Run the tests of ``path`` whose names match ``select`` (pytest ``-k``) in a subprocess
    under ``kernel``; skips when this CPU cannot execute it, fails with the subprocess's report
    when a case fails."""
    import pytest

    if kernel not in blas_kernels.runnable_kernels():
        pytest.skip(f"this CPU cannot execute OpenBLAS's {kernel} kernel, the recordings' "
                    f"(/proc/cpuinfo lacks its instructions)")
    env = dict(os.environ, OPENBLAS_CORETYPE=kernel, OPENBLAS_NUM_THREADS="1")
    res = subprocess.run([sys.executable, "-m", "pytest", str(path), "-q", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "-k", select],
                         env=env, cwd=str(Path(path).parent.parent), capture_output=True, text=True)
    assert res.returncode == 0, f"under OPENBLAS_CORETYPE={kernel}:\n{res.stdout[-6000:]}"
    assert " passed" in res.stdout and " skipped" not in res.stdout.splitlines()[-1], res.stdout
