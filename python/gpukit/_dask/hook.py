"""Registers gpukit with Dask whichever of the two is imported first, without importing Dask.

Dask finds the implementations of its dispatch tables (concatenate, tensordot, serialisation, ...) by
the type of a chunk, and registers the array libraries it knows (NumPy, CuPy, sparse) lazily, on first
sight of their types. It does not know gpukit, so gpukit registers itself: at once when dask.array or
distributed.protocol is already imported when gpukit is, else right after that import completes (a
finder on ``sys.meta_path`` that watches those two names only and then leaves). A program that uses
Dask with gpukit arrays therefore needs no ``import gpukit.dask``; worker processes, which import
gpukit and Dask in whatever order their tasks need, are covered as well.
"""

import importlib
import importlib.abc
import sys
import warnings


def _register_array():
    importlib.import_module("gpukit.dask")


def _register_distributed():
    from . import distributed

    distributed.register()


# The module whose import completes, and what registers gpukit with it.
_REGISTRATIONS = {"dask.array": _register_array, "distributed.protocol": _register_distributed}


def _register(module_name):
    try:
        _REGISTRATIONS[module_name]()
    except Exception as error:  # whatever it is, it must not break the user's import of Dask
        warnings.warn(f"gpukit could not register itself with {module_name} ({type(error).__name__}: {error}); "
                      f"`import gpukit.dask` shows the whole error", RuntimeWarning, stacklevel=2)


class _RegisterAfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: for a watched module it asks the other finders, and wraps the loader
    they return so that gpukit registers once the module has run."""

    def __init__(self, module_names):
        self.waiting = set(module_names)

    def find_spec(self, name, path, target=None):
        if name not in self.waiting:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        self.waiting.discard(name)
        if not self.waiting and self in sys.meta_path:
            sys.meta_path.remove(self)
        spec.loader = _LoaderThenRegister(spec.loader, name)
        return spec


class _LoaderThenRegister(importlib.abc.Loader):
    """The watched module's own loader, followed by gpukit's registration; every other attribute
    (resource readers, source access) is the wrapped loader's."""

    def __init__(self, loader, module_name):
        self._loader = loader
        self._module_name = module_name

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _register(self._module_name)

    def __getattr__(self, name):
        return getattr(self._loader, name)


def register_when_dask_is_imported():
    """Registers gpukit with dask.array and distributed.protocol now if they are imported, and
    otherwise as soon as they are."""
    waiting = []
    for module_name in _REGISTRATIONS:
        if module_name in sys.modules:
            _register(module_name)
        else:
            waiting.append(module_name)
    if waiting:
        sys.meta_path.insert(0, _RegisterAfterImport(waiting))


register_when_dask_is_imported()
