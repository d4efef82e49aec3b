"""RawModule's options: one allowlist on every backend, checked by the C++ core; includes only from
the -I roots and string headers, so a compile error never quotes another file."""

import pytest

import gpukit

KERNEL = 'extern "C" __global__ void fill(int* out) { out[threadIdx.x] = SCALE + threadIdx.x; }'


def run_fill(kernel):
    out = gpukit.zeros(8, dtype="int32")
    kernel((1,), (8,), (out,))
    return out.get()


@pytest.mark.parametrize("options", [
    ("-DSCALE=3",), ("--define-macro=SCALE=3",), ("-DSCALE=3", "-O3", "--use_fast_math", "-lineinfo", "-G"),
    ("-DSCALE=3", "-std=c++17", "--fmad=false", "-maxrregcount=32", "--restrict", "-w", "-UNDEBUG"),
])
def test_the_allowlist_compiles_and_means_what_it_says(options):
    assert list(run_fill(gpukit.RawKernel(KERNEL, "fill", options=options))) == [3 + i for i in range(8)]


@pytest.mark.parametrize("option", [
    "-fplugin=/tmp/evil.so", "-Wp,-MD,/tmp/x", "-B/tmp", "-o", "-include/etc/passwd", "-Xlinker", "-Ofast",
    "-std=gnu++17", "-D", "-I/nonexistent/dir", "--ftz=maybe", "-maxrregcount=0",
])
def test_anything_else_is_a_value_error_listing_what_is_accepted(option):
    with pytest.raises(ValueError) as raised:
        gpukit.RawKernel(KERNEL, "fill", options=(option, "-DSCALE=3"))
    assert "is not accepted" in str(raised.value)
    assert "Accepted options: -D<name>" in str(raised.value)


def test_options_are_strings():
    with pytest.raises(TypeError, match=r"options must be a str or a sequence of str; options\[1\] is an int"):
        gpukit.RawKernel(KERNEL, "fill", options=("-DSCALE=3", 3))


def test_the_program_name_is_a_file_name():
    with pytest.raises(ValueError, match="program_name= must be a relative file name"):
        gpukit.RawKernel("#define SCALE 1\n" + KERNEL, "fill", program_name="../../etc/kernel.cu")


@pytest.mark.parametrize("include", ['"/etc/passwd"', "<../../../../../../../etc/passwd>", '"../secret.h"'])
def test_an_include_outside_the_roots_is_not_found_or_not_allowed(tmp_path, include):
    (tmp_path / "secret.h").write_text("int secret_value = broken;\n")
    (tmp_path / "inc").mkdir()
    with pytest.raises(gpukit.CompileError) as raised:
        gpukit.RawModule(f"#include {include}\n" + KERNEL, options=(f"-I{tmp_path / 'inc'}", "-DSCALE=1"))
    log = raised.value.log
    assert f"kernel.cu:1: error: #include {include}: not found or not allowed" in log
    assert "broken" not in log and "root:" not in log
