"""A one-line progress indicator on stderr, drawn only when stderr is a terminal (so logs and
pipes get the results alone)."""

import sys


class Progress:
    """``with Progress(total) as progress: progress.show(step, text)`` redraws one line, erased at the end."""

    def __init__(self, total, stream=None):
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        self.enabled = self.stream.isatty()

    def show(self, step, text):
        if self.enabled:
            self.stream.write(f"\r\033[K[{step}/{self.total}] {text}")
            self.stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()
