"""Streams and events, and the current stream that launches and copies go to.

``with stream:`` makes a stream current for the calling thread until the block ends; launches,
copies and :func:`gpukit.benchmark` without an explicit ``stream=`` use the current stream.
:attr:`Stream.null` is the device's legacy default stream, current when no other is: work on it
waits for earlier work on every blocking stream, and blocking streams wait for it.
"""

import threading

from . import _core
from ._backend import get_device


class _CurrentStreams(threading.local):
    def __init__(self):
        self.stack = []


_current = _CurrentStreams()


class Stream:
    """A stream: work enqueued on it runs in order; work on different streams may overlap.

    ``Stream()`` creates a blocking stream on the current device (``non_blocking=True`` for one that
    does not wait for the default stream). ``Stream.null`` is the default stream."""

    null = None  # set below: the default stream of whichever device the work runs on

    __slots__ = ("_native", "_device", "__weakref__")

    def __init__(self, non_blocking=False, device=None):
        self._device = device if device is not None else get_device()
        self._native = _core.Stream(self._device, non_blocking)

    @classmethod
    def _default(cls):
        stream = cls.__new__(cls)
        stream._native = None
        stream._device = None
        return stream

    @property
    def device(self):
        """The device the stream belongs to (the current device for :attr:`Stream.null`)."""
        return self._device if self._device is not None else get_device()

    @property
    def is_default(self):
        """True for :attr:`Stream.null`."""
        return self._native is None

    @property
    def ptr(self):
        """The native handle as an int (a ``CUstream``); 0 for the default stream."""
        return 0 if self._native is None else self._native.native_handle

    def synchronize(self):
        """Waits until all work enqueued on the stream has finished."""
        if self._native is None:
            _core.synchronize_default_stream(self.device)
        else:
            self._native.synchronize()

    def done(self):
        """True when all work enqueued so far has finished."""
        if self._native is None:
            return _core.query_default_stream(self.device)
        return self._native.query()

    def wait_event(self, event):
        """Work enqueued on this stream after this call waits until ``event`` has completed."""
        if self._native is None:
            _core.default_stream_wait(self.device, event._native)
        else:
            self._native.wait(event._native)

    def record(self, event=None):
        """Records ``event`` (a new one when None) on this stream and returns it."""
        event = event if event is not None else Event()
        event.record(self)
        return event

    def use(self):
        """Makes this the current stream of the calling thread outside any ``with`` block; returns self."""
        if _current.stack:
            _current.stack[-1] = self
        else:
            _current.stack.append(self)
        return self

    def __enter__(self):
        _current.stack.append(self)
        return self

    def __exit__(self, *exc_info):
        _current.stack.pop()

    def __eq__(self, other):
        if not isinstance(other, Stream):
            return NotImplemented
        if self._native is None or other._native is None:
            return self._native is other._native
        return self.ptr == other.ptr and self.device == other.device

    def __hash__(self):
        return hash(self.ptr)

    def __repr__(self):
        if self._native is None:
            return "<gpukit.Stream null (the default stream)>"
        return f"<gpukit.Stream 0x{self.ptr:x} on {self._device!r}>"


Stream.null = Stream._default()


def get_current_stream():
    """The calling thread's current stream: the innermost ``with stream:``, else :attr:`Stream.null`."""
    return _current.stack[-1] if _current.stack else Stream.null


def _native_stream(stream):
    """What the extension takes for ``stream``: None for the default stream, else the _core.Stream."""
    if stream is None:
        stream = get_current_stream()
    if not isinstance(stream, Stream):
        raise TypeError(f"stream must be a gpukit.Stream or None, not {type(stream).__name__}")
    return stream._native


class Event:
    """A marker in a stream, for ordering streams and timing the work between two of them.

    ``Event()`` times (``timing=False`` makes a lighter one that cannot). ``record(stream)``
    captures the work enqueued on the stream so far; ``synchronize()`` waits for it."""

    __slots__ = ("_native", "__weakref__")

    def __init__(self, timing=True, device=None):
        self._native = _core.Event(device if device is not None else get_device(), timing)

    @property
    def device(self):
        """The device the event belongs to."""
        return self._native.device

    def record(self, stream=None):
        """Captures the work enqueued so far on ``stream`` (default: the current stream)."""
        self._native.record(_native_stream(stream))

    def synchronize(self):
        """Waits until the captured work has finished."""
        self._native.synchronize()

    def done(self):
        """True when the captured work has finished (or nothing was recorded)."""
        return self._native.query()

    @property
    def is_recorded(self):
        """True once :meth:`record` has been called."""
        return self._native.is_recorded

    def elapsed_time(self, end):
        """Milliseconds from this event to ``end``; both recorded, ``end`` completed (synchronise it first)."""
        return get_elapsed_time(self, end)

    def __repr__(self):
        state = "recorded" if self.is_recorded else "not recorded"
        return f"<gpukit.Event {state} on {self.device!r}>"


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events (as ``cupy.cuda.get_elapsed_time``)."""
    return _core.Event.elapsed_ms(start_event._native, end_event._native)
