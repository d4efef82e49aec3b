"""gpukit registers itself with Dask whichever is imported first, without importing Dask itself: each
order runs in a fresh interpreter, as a user's program (or a worker process) would."""

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("dask.array")
pytest.importorskip("distributed")

CHECK_ARRAY = """
    import dask.array
    from dask.array.chunk_types import is_valid_chunk_type
    from dask.array.dispatch import concatenate_lookup
    assert is_valid_chunk_type(gpukit.ndarray)
    assert concatenate_lookup.dispatch(gpukit.ndarray) is gpukit.concatenate
"""
CHECK_DISTRIBUTED = """
    from distributed.protocol import dask_serialize
    dask_serialize.dispatch(gpukit.ndarray)  # TypeError when nothing is registered
"""


def run_fresh(source):
    completed = subprocess.run([sys.executable, "-c", textwrap.dedent(source)], capture_output=True, text=True,
                               timeout=120, env=os.environ.copy())
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "could not register" not in completed.stderr, completed.stderr


def test_importing_gpukit_imports_nothing_of_dask():
    run_fresh("""
        import sys
        import gpukit
        assert not [name for name in sys.modules if name.split(".")[0] in ("dask", "distributed")], sys.modules
    """)


def test_dask_imported_after_gpukit():
    run_fresh("import gpukit\n" + textwrap.dedent(CHECK_ARRAY) + textwrap.dedent(CHECK_DISTRIBUTED))


def test_dask_imported_before_gpukit():
    run_fresh("import dask.array, distributed\nimport gpukit\n" + textwrap.dedent(CHECK_ARRAY)
              + textwrap.dedent(CHECK_DISTRIBUTED))


def test_distributed_alone_then_dask_array():
    run_fresh("import distributed.protocol\nimport gpukit\n" + textwrap.dedent(CHECK_DISTRIBUTED)
              + textwrap.dedent(CHECK_ARRAY))
