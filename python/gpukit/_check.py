"""Check mode: the simulator finds out-of-bounds accesses, races, barrier misuse and uninitialised reads.

Turn it on per module (``RawModule(code, check='memcheck,racecheck')``) or for every module of the
process (``GPUKIT_CHECK=memcheck,racecheck`` or ``all``). Check-mode launches record what they find;
:func:`take_check_report` waits for them and returns the hazards, as records and as
compute-sanitizer-style text. With :func:`set_raise_on_hazard` (or ``GPUKIT_CHECK_RAISE=1``) a launch
that found a hazard raises :class:`gpukit.HazardError` at the next synchronisation instead.
On a GPU, modules compile without check mode: use compute-sanitizer there.
"""

from . import _core

Hazard = _core.Hazard
CheckReport = _core.CheckReport


def take_check_report():
    """Waits for check-mode launches to finish; returns a :class:`CheckReport` of the hazards found
    since the last call (and forgets them). ``report.clean`` is True when there were none;
    ``report.text()`` reads like compute-sanitizer."""
    return _core.take_check_report()


def set_raise_on_hazard(raise_on_hazard=True):
    """Whether a check-mode launch that finds a hazard raises :class:`gpukit.HazardError` at the next
    synchronisation (the hazards stay in the report)."""
    _core.set_raise_on_hazard(raise_on_hazard)  # True or False: another value is refused


def raise_on_hazard():
    """True when hazards raise :class:`gpukit.HazardError` (see :func:`set_raise_on_hazard`)."""
    return _core.raise_on_hazard()


def check_tools_from_environment():
    """The tools ``GPUKIT_CHECK`` turns on for every module, e.g. ``'memcheck,racecheck'`` (``'none'`` when unset)."""
    return _core.check_tools_from_environment()
