"""gpukit check: the report's shape, --json, exit status 0 or 1, the options, and every mistake on
the command line as one line and exit status 2. Runs go through new processes (check mode is the
simulator's, and a process on a GPU has chosen CUDA); argument errors are found before any backend,
in this process."""

import json

import pytest

from cli_helpers import EXAMPLES, assert_one_line_error, run_gpukit, run_in_process

VECTOR_ADD = ("--kernel", "vector_add", "--grid", "4", "--block", "256", "--arg", "float32[1000]:random",
              "--arg", "float32[1000]:random", "--arg", "float32[1000]", "--arg", "int32:1000")
PLANTED = EXAMPLES / "vector_add_no_bounds_check.cu"
FIXED = EXAMPLES / "vector_add_no_bounds_check_fixed.cu"


def check(*args, **kwargs):
    return run_gpukit("check", *args, **kwargs)


def test_a_hazard_is_reported_as_compute_sanitizer_does_and_exits_1():
    result = check(PLANTED, *VECTOR_ADD)
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == (f"Checked vector_add from {PLANTED} with memcheck, racecheck, synccheck, initcheck: "
                        "grid (4, 1, 1), block (256, 1, 1)")
    assert lines[1] == "========= GPUKIT CHECK"
    assert "========= Invalid __global__ read of size 4 bytes" in lines
    assert "=========     at vector_add in vector_add_no_bounds_check.cu:5" in lines
    assert "=========     (24 times from this line)" in lines
    assert "========= ERROR SUMMARY: 24 errors (1 distinct)" in lines
    assert lines[-4:] == ["memcheck    1 hazard, 24 times", "racecheck   clean", "synccheck   clean",
                          "initcheck   clean"]


def test_the_fixed_twin_is_clean_and_exits_0():
    result = check(FIXED, *VECTOR_ADD)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "========= ERROR SUMMARY: 0 errors (0 distinct)" in result.stdout
    assert result.stdout.count("clean") == 4


def test_gpukit_check_in_the_environment_does_not_print_the_report_twice():
    result = check(PLANTED, *VECTOR_ADD, env={"GPUKIT_CHECK": "memcheck"})
    assert result.returncode == 1 and result.stderr == "", result.stderr
    assert result.stdout.count("========= Invalid __global__ read of size 4 bytes") == 1
    assert result.stdout.count("ERROR SUMMARY") == 1


def test_json_has_one_record_per_distinct_hazard():
    result = check(PLANTED, *VECTOR_ADD, "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["kernel"] == "vector_add" and report["grid"] == [4] and report["block"] == [256]
    assert report["tools"] == ["memcheck", "racecheck", "synccheck", "initcheck"]
    assert report["arguments"] == ["float32[1000]:random", "float32[1000]:random", "float32[1000]", "int32:1000"]
    assert report["clean"] is False
    [hazard] = report["hazards"]
    assert hazard["tool"] == "memcheck"
    assert hazard["what"] == "Invalid __global__ read of size 4 bytes"
    assert (hazard["file"], hazard["line"], hazard["occurrences"]) == ("vector_add_no_bounds_check.cu", 5, 24)
    assert hazard["block"] == [3, 0, 0] and hazard["thread"][0] >= 232
    assert "0 bytes after the nearest allocation" in hazard["detail"]


def test_tools_choose_what_runs():
    result = check(PLANTED, *VECTOR_ADD, "--tools", "racecheck,synccheck")
    assert result.returncode == 0  # the overshoot is memcheck's to find
    assert result.stdout.splitlines()[-2:] == ["racecheck   clean", "synccheck   clean"]


def test_macros_and_include_folders_reach_the_compiler(tmp_path):
    (tmp_path / "kernels").mkdir()
    (tmp_path / "headers").mkdir()
    (tmp_path / "kernels" / "beside.h").write_text("#define VALUE 7\n")
    (tmp_path / "headers" / "elsewhere.h").write_text("#define STRIDE 1\n")
    source = tmp_path / "kernels" / "shift.cu"
    source.write_text('#include "beside.h"\n#include "elsewhere.h"\n'
                      'extern "C" __global__ void shift(int* out) { out[threadIdx.x * STRIDE + OFFSET] = VALUE; }\n')
    common = ("--kernel", "shift", "--grid", "1", "--block", "32", "--arg", "int32[32]", "-I", tmp_path / "headers")
    assert check(source, *common, "-DOFFSET=0").returncode == 0
    past_the_end = check(source, *common, "-DOFFSET=1", "--json")
    assert past_the_end.returncode == 1
    [hazard] = json.loads(past_the_end.stdout)["hazards"]
    assert hazard["what"] == "Invalid __global__ write of size 4 bytes" and hazard["occurrences"] == 1


def test_shared_sizes_the_dynamic_shared_memory(tmp_path):
    source = tmp_path / "stage.cu"
    source.write_text('extern "C" __global__ void stage(const float* in, float* out) {\n'
                      "  extern __shared__ float staged[];\n"
                      "  staged[threadIdx.x] = in[threadIdx.x];\n"
                      "  __syncthreads();\n"
                      "  out[threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x];\n"
                      "}\n")
    common = ("--kernel", "stage", "--grid", "1", "--block", "128", "--arg", "float32[128]:random",
              "--arg", "float32[128]")
    too_little = check(source, *common, "--shared", "256")
    assert too_little.returncode == 1
    assert "========= Invalid __shared__ write of size 4 bytes" in too_little.stdout
    assert "256 bytes of dynamic shared memory" in too_little.stdout.splitlines()[0]
    assert check(source, *common, "--shared", "512").returncode == 0


def test_empty_arrays_are_never_written(tmp_path):
    source = tmp_path / "accumulate.cu"
    source.write_text('extern "C" __global__ void accumulate(const float* x, float* total) {\n'
                      "  total[threadIdx.x] += x[threadIdx.x];\n"
                      "}\n")
    common = ("--kernel", "accumulate", "--grid", "1", "--block", "64", "--arg", "float32[64]:random",
              "--tools", "initcheck", "--json")
    uninitialised = check(source, *common, "--arg", "float32[64]:empty")
    assert uninitialised.returncode == 1
    first = json.loads(uninitialised.stdout)["hazards"][0]
    assert first["what"] == "Uninitialized __global__ memory read of size 4 bytes"
    assert check(source, *common, "--arg", "float32[64]:const:1").returncode == 0


def test_a_kernel_that_cannot_finish_exits_1_saying_why(tmp_path):
    source = tmp_path / "lock.cu"
    source.write_text('extern "C" __global__ void lock_forever(int* lock) {\n'
                      "  while (atomicCAS(lock, 0, 1) != 0) {}  // taken by thread 0, never released\n"
                      "}\n")
    result = check(source, "--kernel", "lock_forever", "--grid", "1", "--block", "2", "--arg", "int32[1]",
                   "--tools", "memcheck", env={"GPUKIT_SIM_WATCHDOG_SECONDS": "1"})
    assert result.returncode == 1
    assert result.stderr.startswith("gpukit check: lock_forever failed while running: Kernel lock_forever")
    assert "block (0, 0, 0)" in result.stderr and "has retried a failed atomicCAS" in result.stderr


def test_a_kernel_that_does_not_compile_shows_the_compilers_log(tmp_path):
    source = tmp_path / "broken.cu"
    source.write_text('extern "C" __global__ void broken(int* out) {\n  out[0] = ;\n}\n')
    result = check(source, "--kernel", "broken", "--grid", "1", "--block", "1", "--arg", "int32[1]")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("gpukit check: error: broken.cu does not compile:\n")
    assert "broken.cu:2" in result.stderr  # the compiler points at the user's line


def test_a_missing_file(capsys):
    status, _, err = run_in_process(capsys, "check", EXAMPLES / "no_such_kernel.cu", *VECTOR_ADD)
    assert status == 2
    assert_one_line_error(err, "gpukit check", "no_such_kernel.cu: no such file")


MALFORMED_OPTIONS = [
    ("--grid", "0", ["argument --grid/-g: '0' is not X, X,Y or X,Y,Z"]),
    ("--grid", "4,1,1,1", ["'4,1,1,1' is not X, X,Y or X,Y,Z"]),
    ("--block", "sixteen", ["argument --block/-b: 'sixteen'"]),
    ("--arg", "flaot32[1000]:random", ["unknown type 'flaot32'", "float32"]),
    ("--arg", "float32[1000]:gaussian", ["unknown fill 'gaussian'", "random:LOW:HIGH"]),
    ("--arg", "float32[-5]", ["the length in [...] must be a whole number"]),
    ("--arg", "float32[1000]:const", ["write the fill as const:VALUE"]),
    ("--arg", "float32[1000]:random:1:0", ["needs LOW < HIGH"]),
    ("--arg", "int32:ten", ["'ten' is not an integer, as int32 needs"]),
    ("--arg", "int8:300", ["300 does not fit in int8 (-128 to 127)"]),
    ("--arg", "1000", ["is neither an array", "nor a scalar"]),
    ("--tools", "memchek", ["Unknown check tool 'memchek'", "racecheck"]),
    ("--tools", "", ["name at least one tool"]),
    ("--shared", "1k", ["'1k' is not a whole number of bytes"]),
]


@pytest.mark.parametrize("option, value, fragments", MALFORMED_OPTIONS,
                         ids=[f"{option} '{value}'" for option, value, _ in MALFORMED_OPTIONS])
def test_malformed_options(capsys, option, value, fragments):
    status, _, err = run_in_process(capsys, "check", FIXED, *VECTOR_ADD, option, value)
    assert status == 2
    assert_one_line_error(err, "gpukit check", *fragments)


def test_a_required_option_left_out(capsys):
    status, _, err = run_in_process(capsys, "check", FIXED, "--grid", "4", "--block", "256")
    assert status == 2
    assert_one_line_error(err, "gpukit check", "the following arguments are required: --kernel/-k")


def vector_add_with(*arguments):
    """The vector add command line with its four --arg options replaced by ``arguments``."""
    kept = list(VECTOR_ADD[:VECTOR_ADD.index("--arg")])
    return kept + [token for argument in arguments for token in ("--arg", argument)]


@pytest.mark.parametrize("options, fragments", [
    (["--kernel", "vector_sum", *VECTOR_ADD[2:]], ["has no kernel 'vector_sum'", "its kernels are vector_add"]),
    ([*VECTOR_ADD[:4], "--block", "2048", *VECTOR_ADD[6:]], ["block.x = 2048 exceeds the device's limit of 1024"]),
    ([*VECTOR_ADD, "--arg", "float32[10]"], ["takes 4 parameters", "5 arguments were given"]),
    (vector_add_with("float32[10]", "float32[10]", "int32:10", "int32:10"), ["parameter 2 ('float * C')",
                                                                             "is a pointer"]),
    (vector_add_with("float32[10]", "float32[10]", "float32[10]", "float32[10]"),
     ["parameter 3 ('const int size') is not a pointer"]),
], ids=["kernel not in the file", "block over the limit", "one argument too many", "a scalar for a pointer",
        "an array for a scalar"])
def test_what_the_kernel_or_the_device_refuses(options, fragments):
    result = check(FIXED, *options)
    assert result.returncode == 2, result.stdout
    assert_one_line_error(result.stderr, "gpukit check", *fragments)


def test_a_launch_past_the_time_limit_is_given_up_naming_the_kernel_and_how_far_it_got(tmp_path):
    spin = tmp_path / "spin.cu"
    spin.write_text('extern "C" __global__ void spin(volatile int* flag) {\n'
                    "  if (blockIdx.x == 1) while (flag[0] == 0) {}\n"
                    "}\n")
    result = check(spin, "--kernel", "spin", "--grid", "2", "--block", "1", "--arg", "int32[1]", "--tools",
                   "memcheck", "--time-limit", "1", timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert "gpukit check: spin ran past the time limit of 1 s with 1 of its 2 blocks done" in result.stderr


def test_a_bad_time_limit_is_one_line(capsys):
    status, _, err = run_in_process(capsys, "check", PLANTED, *VECTOR_ADD, "--time-limit", "-3")
    assert status == 2
    assert_one_line_error(err, "gpukit check", "'-3' is not a number of seconds >= 0")
