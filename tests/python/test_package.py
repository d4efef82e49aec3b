"""The package as a whole: its public names are documented, and the extension's stub is current."""

import inspect
import pathlib
import subprocess
import sys

import gpukit


def test_every_public_name_has_a_docstring():
    # newaxis is None, as NumPy's: a constant has nothing to document.
    undocumented = [name for name in gpukit.__all__ if name != "newaxis" and not inspect.getdoc(getattr(gpukit, name))]
    assert not undocumented


def test_every_public_method_and_property_has_a_docstring():
    missing = []
    for name in gpukit.__all__:
        value = getattr(gpukit, name)
        if not inspect.isclass(value) or value.__module__ != "gpukit":
            continue
        for member, attribute in vars(value).items():
            if member.startswith("_") or not (inspect.isfunction(attribute) or isinstance(attribute, property)):
                continue
            if not inspect.getdoc(attribute):
                missing.append(f"{name}.{member}")
    assert not missing


def test_the_committed_stub_of_the_extension_is_current(tmp_path):
    committed = pathlib.Path(gpukit.__file__).with_name("_core.pyi")
    patterns = pathlib.Path(__file__).parents[2] / "python" / "core-stub-patterns.txt"
    fresh = tmp_path / "_core.pyi"
    subprocess.run([sys.executable, "-m", "nanobind.stubgen", "-q", "-m", "gpukit._core", "-p", str(patterns),
                    "-o", str(fresh)], check=True)
    assert committed.read_text() == fresh.read_text(), (
        "python/gpukit/_core.pyi is stale: python -m nanobind.stubgen -q -m gpukit._core "
        "-p python/core-stub-patterns.txt -o python/gpukit/_core.pyi")


def test_the_package_is_typed():
    assert pathlib.Path(gpukit.__file__).with_name("py.typed").exists()
