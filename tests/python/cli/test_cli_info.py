"""gpukit info: versions, backends and why one is unavailable, compilers, the compile cache."""

import json
import os
import pathlib
import platform

import numpy

import gpukit
from cli_helpers import run_in_process


def info_json(capsys):
    status, out, _ = run_in_process(capsys, "info", "--json")
    assert status == 0
    return json.loads(out)


def test_versions_of_gpukit_python_and_numpy(capsys):
    info = info_json(capsys)
    assert info["gpukit"]["version"] == info["gpukit"]["core_version"] == gpukit.__version__
    assert pathlib.Path(info["gpukit"]["package"]) == pathlib.Path(gpukit.__file__).parent
    assert info["python"]["version"] == platform.python_version()
    assert info["numpy"]["version"] == numpy.__version__


def test_each_backend_is_available_or_says_why_not(capsys):
    backends = info_json(capsys)["backends"]
    assert backends["selected"] == gpukit.backend()
    for known in gpukit.backends():
        backend = backends[known.name]
        assert backend["unavailable_reason"] == (known.unavailable_reason or None)
        assert backend["built"] == known.built
        assert backend["capabilities"]["simulated"] == known.capabilities.simulated
        for part in backend["toolchain"].values():
            if part["problem"] is None:  # usable: which version, and where when it is a file
                assert part["path"] is None or pathlib.Path(part["path"]).exists()
                assert any(character.isdigit() for character in part["version"])
            else:
                assert part["version"] is None
    cuda = backends["cuda"]
    assert cuda["unavailable_reason"] == (gpukit.cuda_unavailable_reason() or None)
    if cuda["built"]:
        assert set(cuda["toolchain"]) == {"headers", "driver", "NVRTC"}
        assert cuda["toolchain"]["headers"]["version"].count(".") == 1
        if cuda["toolchain"]["driver"]["problem"] is not None:
            assert cuda["unavailable_reason"] is not None  # no driver, no CUDA backend
    assert backends["sim"]["unavailable_reason"] is None
    assert backends["sim"]["capabilities"]["check_mode"] is True


def test_the_simulators_host_compiler_and_its_version(capsys):
    compiler = info_json(capsys)["backends"]["sim"]["toolchain"]["host compiler"]
    assert compiler["problem"] is None
    assert pathlib.Path(compiler["path"]).is_absolute() and os.access(compiler["path"], os.X_OK)
    assert any(character.isdigit() for character in compiler["version"])


def test_the_cache_section_is_the_cache_in_use(capsys):
    cache = info_json(capsys)["cache"]
    assert cache["directory"] == os.environ["GPUKIT_CACHE_DIR"]  # set by conftest for the suite
    assert cache["entries"] >= 0 and cache["bytes"] >= 0 and cache["max_bytes"] > 0
    assert {"hits", "misses", "corrupt_entries", "evictions"} <= cache.keys()


def test_text_has_one_fact_per_line(capsys):
    status, out, err = run_in_process(capsys, "info")
    assert status == 0 and err == ""
    assert f"gpukit            {gpukit.__version__} (" in out
    assert f"Python            {platform.python_version()} (" in out
    assert f"NumPy             {numpy.__version__}\n" in out
    assert f"backend in use    {gpukit.backend()} (GPUKIT_BACKEND=" in out
    assert "sim               available\n" in out
    assert "    host compiler   " in out
    assert f"compile cache     {os.environ['GPUKIT_CACHE_DIR']}\n" in out
    assert "    lookups         " in out
    if gpukit.cuda_available():
        assert "cuda              available\n" in out
    else:
        assert "cuda              unavailable: " in out
