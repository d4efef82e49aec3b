"""How the gpukit command writes things: bytes in binary units, times and rates in decimal ones,
and the gist of the core's longer messages."""


def format_bytes(count):
    """``1536`` -> ``'1.5 KiB'``; whole numbers of a unit without decimals (``'48 KiB'``)."""
    value = float(count)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            break
        value /= 1024
    if unit == "B" or value == int(value):
        return f"{int(value)} {unit}"
    return f"{value:.1f} {unit}"


def format_seconds(seconds):
    """A duration with three significant digits in the unit that suits it: ``'412 us'``, ``'45.1 ms'``."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{_three_digits(seconds / scale)} {unit}"
    return f"{_three_digits(seconds / 1e-9)} ns"


def format_rate(per_second, unit):
    """``2.1e12, 'B/s'`` -> ``'2.10 TB/s'``: an SI prefix, three significant digits."""
    for prefix, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if per_second >= scale:
            return f"{_three_digits(per_second / scale)} {prefix}{unit}"
    return f"{_three_digits(per_second)} {unit}"


def _three_digits(value):
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def first_sentence(message):
    """The first sentence of a core message, which names what is missing; the rest says how to fix it."""
    line = message.strip().split("\n", 1)[0]
    end = line.find(". ")
    return line if end < 0 else line[:end + 1]
