"""How the gpukit command writes sizes, times, rates and the gist of the core's messages."""

import pytest

from gpukit.cli._format import first_sentence, format_bytes, format_rate, format_seconds


@pytest.mark.parametrize("count, text", [(0, "0 B"), (512, "512 B"), (48 * 1024, "48 KiB"), (1536, "1.5 KiB"),
                                         (227 * 1024, "227 KiB"), (150_117_875_712, "139.8 GiB"),
                                         (1 << 30, "1 GiB"), (5 << 40, "5 TiB")])
def test_bytes_in_binary_units(count, text):
    assert format_bytes(count) == text


@pytest.mark.parametrize("seconds, text", [(2.5, "2.50 s"), (0.0451, "45.1 ms"), (0.000412, "412 us"),
                                           (3.2e-8, "32.0 ns"), (120.0, "120 s")])
def test_seconds_with_three_significant_digits(seconds, text):
    assert format_seconds(seconds) == text


@pytest.mark.parametrize("rate, unit, text", [(2.1e12, "B/s", "2.10 TB/s"), (4.08e9, "B/s", "4.08 GB/s"),
                                              (659e6, "FLOP/s", "659 MFLOP/s"), (12.0, "B/s", "12.0 B/s")])
def test_rates_with_an_si_prefix(rate, unit, text):
    assert format_rate(rate, unit) == text


def test_the_first_sentence_of_a_core_message_names_what_is_missing():
    message = ("The CUDA driver (libcuda.so.1) was not found. Tried:\n  libcuda.so.1: cannot open\n"
               "It comes with the NVIDIA display driver.")
    assert first_sentence(message) == "The CUDA driver (libcuda.so.1) was not found."
    assert first_sentence("No device") == "No device"
