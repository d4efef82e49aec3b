"""Check mode: the simulator finds out-of-bounds accesses, races, barrier misuse and uninitialised reads.

Turn it on per module (``RawModule(code, check='memcheck,racecheck')``) or for every module of the
process (``GPUKIT_CHECK=memcheck,racecheck`` or ``all``). Check-mode launches record what they find;
:func:`take_check_report` waits for them and returns the hazards, as records and as
compute-sanitizer-style text. With :func:`set_raise_on_hazard` (or ``GPUKIT_CHECK_RAISE=1``) a launch
that found a hazard raises :class:`gpukit.HazardError` at the next synchronisation instead.
With ``GPUKIT_CHECK`` set, the hazards are also printed to stderr as compute-sanitizer prints them (each
once, at the first synchronisation after its launch, and an ``ERROR SUMMARY`` at exit), so a program
is checked without a change; :func:`set_print_check_report` turns that off or on.
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


def set_print_check_report(print_report=True):
    """Whether hazards are printed to stderr (each once, at the first synchronisation after its launch
    or when :func:`take_check_report` takes it) with an ``ERROR SUMMARY`` at exit. On when
    ``GPUKIT_CHECK`` names a tool; the printed hazards still go to :func:`take_check_report`."""
    _core.set_print_check_report(bool(print_report))


def print_check_report():
    """True when hazards are printed to stderr (see :func:`set_print_check_report`)."""
    return _core.print_check_report()


def raise_on_hazard():
    """True when hazards raise :class:`gpukit.HazardError` (see :func:`set_raise_on_hazard`)."""
    return _core.raise_on_hazard()


def check_tools_from_environment():
    """The tools ``GPUKIT_CHECK`` turns on for every module, e.g. ``'memcheck,racecheck'`` (``'none'`` when unset)."""
    return _core.check_tools_from_environment()
