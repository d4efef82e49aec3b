// tests/core/option_policy_test.cpp: the one allowlist of compiler options, and the checks of
// CompileOptions' values, that every backend's compile goes through.
#include "core/option_policy.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gpukit/error.hpp"
#include "gpukit/module.hpp"

namespace gpukit {
namespace {

using Kind = CompileOption::Kind;

// The message of the InvalidArgumentError that `f` throws; fails the test when it throws none.
template <class F>
std::string refusal_of(F&& f) {
    try {
        f();
    } catch (const InvalidArgumentError& error) {
        return error.what();
    }
    ADD_FAILURE() << "no InvalidArgumentError";
    return {};
}

struct Accepted {
    std::string option;
    Kind kind;
    std::string name;
    std::string value;
    std::string nvrtc;
};

TEST(CompileOptionPolicy, AcceptsTheAllowlistInNvrtcsSpellings) {
    const std::string dir = std::filesystem::temp_directory_path().string();
    const std::vector<Accepted> accepted = {
        {"-DN=256", Kind::define, "N", "256", "-DN=256"},
        {"-DDEBUG", Kind::define, "DEBUG", "", "-DDEBUG"},
        {"--define-macro=SCALE=3", Kind::define, "SCALE", "3", "-DSCALE=3"},
        {"-DMAX(a,b)=((a)>(b)?(a):(b))", Kind::define, "MAX(a,b)", "((a)>(b)?(a):(b))", "-DMAX(a,b)=((a)>(b)?(a):(b))"},
        {"-DLOG(fmt, ...)=0", Kind::define, "LOG(fmt, ...)", "0", "-DLOG(fmt, ...)=0"},
        {"-UNDEBUG", Kind::undefine, "NDEBUG", "", "-UNDEBUG"},
        {"--undefine-macro=X", Kind::undefine, "X", "", "-UX"},
        {"-I" + dir, Kind::include_dir, dir, "", "-I" + dir},
        {"--include-path=" + dir, Kind::include_dir, dir, "", "-I" + dir},
        {"-std=c++14", Kind::std, "c++14", "", "-std=c++14"},
        {"--std=c++20", Kind::std, "c++20", "", "-std=c++20"},
        {"-O0", Kind::optimisation, "0", "", ""},
        {"-O3", Kind::optimisation, "3", "", ""},
        {"-Os", Kind::optimisation, "s", "", ""},
        {"-Og", Kind::optimisation, "g", "", ""},
        {"--use_fast_math", Kind::fast_math, "", "", "--use_fast_math"},
        {"-use_fast_math", Kind::fast_math, "", "", "--use_fast_math"},
        {"--ftz=true", Kind::fast_math_part, "ftz", "true", "--ftz=true"},
        {"-prec-div=false", Kind::fast_math_part, "prec-div", "false", "--prec-div=false"},
        {"--prec-sqrt=true", Kind::fast_math_part, "prec-sqrt", "true", "--prec-sqrt=true"},
        {"--fmad=false", Kind::fast_math_part, "fmad", "false", "--fmad=false"},
        {"-G", Kind::device_debug, "", "", "--device-debug"},
        {"--device-debug", Kind::device_debug, "", "", "--device-debug"},
        {"-lineinfo", Kind::line_info, "", "", "--generate-line-info"},
        {"--generate-line-info", Kind::line_info, "", "", "--generate-line-info"},
        {"-g", Kind::debug_info, "", "", "--generate-line-info"},
        {"-maxrregcount=64", Kind::max_registers, "64", "", "--maxrregcount=64"},
        {"--maxrregcount=255", Kind::max_registers, "255", "", "--maxrregcount=255"},
        {"--restrict", Kind::restrict_pointers, "", "", "--restrict"},
        {"-restrict", Kind::restrict_pointers, "", "", "--restrict"},
        {"-w", Kind::no_warnings, "", "", "--disable-warnings"},
        {"--disable-warnings", Kind::no_warnings, "", "", "--disable-warnings"},
        {"--extra-device-vectorization", Kind::device_only, "--extra-device-vectorization", "",
         "--extra-device-vectorization"},
        {"-dopt=off", Kind::device_only, "-dopt=off", "", "--dopt=off"},
        {"-default-device", Kind::device_only, "-default-device", "", "--device-as-default-execution-space"},
        {"--builtin-move-forward=false", Kind::device_only, "--builtin-move-forward=false", "",
         "--builtin-move-forward=false"},
        {"--diag-suppress=177,550", Kind::device_only, "--diag-suppress=177,550", "", "--diag-suppress=177,550"},
        {"-err-no", Kind::device_only, "-err-no", "", "--display-error-number"},
        {"--no-display-error-number", Kind::device_only, "--no-display-error-number", "", "--no-display-error-number"},
    };
    for (const Accepted& expected : accepted) {
        const CompileOption option = parse_compile_option(expected.option);
        EXPECT_EQ(option.kind, expected.kind) << expected.option;
        EXPECT_EQ(option.name, expected.name) << expected.option;
        EXPECT_EQ(option.value, expected.value) << expected.option;
        EXPECT_EQ(option.nvrtc, expected.nvrtc) << expected.option;
    }
}

TEST(CompileOptionPolicy, RefusesWhatWouldRunOtherProgramsAndListsWhatIsAccepted) {
    // Each of these reached the host compiler before: a plugin, a preprocessor or linker flag, a
    // directory of compiler programs, an output file, a header forced in, a response file.
    for (const char* option : {"-fplugin=/tmp/evil.so",
                               "-fplugin-arg-evil-x=1",
                               "-Wp,-MD,/tmp/x",
                               "-Wl,-rpath,/x",
                               "-Wa,--defsym,x=1",
                               "-B/tmp/evil",
                               "-o",
                               "-o/tmp/overwritten",
                               "-include/etc/passwd",
                               "--pre-include=/etc/passwd",
                               "-isystem/tmp",
                               "-iquote/tmp",
                               "-Xlinker",
                               "@/tmp/args",
                               "-specs=/tmp/evil.specs",
                               "-wrapper",
                               "-fdump-tree-all",
                               "-MD",
                               "-save-temps",
                               "--time=/tmp/t",
                               "-Xptxas",
                               "--ptxas-options=-v",
                               "-fsanitize=address",
                               "-march=native",
                               "-mtls-dialect=gnu",
                               "-W",
                               "-Werror",
                               "-O",
                               "-O4",
                               "-Ofast",
                               "-D",
                               "-I",
                               "-x",
                               "c++",
                               "",
                               "-std=gnu++17",
                               "-std=c++03",
                               "-std=c++2b",
                               "--use-fast-math",
                               "-G0"}) {
        const std::string message = refusal_of([&] { parse_compile_option(option); });
        EXPECT_NE(message.find(std::string("'") + option + "'"), std::string::npos) << message;
        EXPECT_NE(message.find("Accepted options: -D<name>"), std::string::npos) << message;
    }
}

TEST(CompileOptionPolicy, ABadValueIsAnErrorNeverIgnored) {
    for (const char* option :
         {"-D1X=2", "-DX-Y", "-DF(x=1", "-DF(1)=2", "-U1", "-UX=1", "-Inonexistent-dir-xyz",
          "--include-path=", "--ftz=maybe", "--fmad=1", "-maxrregcount=0", "-maxrregcount=256", "-maxrregcount=12x",
          "-dopt=maybe", "--diag-suppress=1,,2", "--diag-suppress=abc", "--builtin-move-forward=yes"}) {
        EXPECT_THROW(parse_compile_option(option), InvalidArgumentError) << option;
    }
    EXPECT_THROW(parse_compile_option(std::string("-DX=1\n#include \"/etc/passwd\"")), InvalidArgumentError);
    EXPECT_THROW(parse_compile_option(std::string("-DX=a\0b", 7)), InvalidArgumentError);
    const std::string arch = refusal_of([] { parse_compile_option("-arch=sm_80"); });
    EXPECT_NE(arch.find("CompileOptions::target"), std::string::npos) << arch;
    EXPECT_THROW(parse_compile_option("--gpu-architecture=compute_90"), InvalidArgumentError);
}

TEST(CompileOptionPolicy, ParsedGathersTheFieldsAndTheExtrasInOrder) {
    const std::string dir = std::filesystem::temp_directory_path().string();
    CompileOptions options = CompileOptions{}.define("N", "4").include_dir(dir).option("-O3").option("-DM");
    options.fast_math = true;
    const std::vector<CompileOption> parsed = options.parsed();
    ASSERT_EQ(parsed.size(), 7u);
    EXPECT_EQ(parsed[0].nvrtc, "-std=c++17");
    EXPECT_EQ(parsed[1].nvrtc, "-DN=4");
    EXPECT_EQ(parsed[2].nvrtc, "-I" + dir);
    EXPECT_EQ(parsed[3].kind, Kind::fast_math);
    EXPECT_EQ(parsed[4].kind, Kind::line_info);
    EXPECT_EQ(parsed[5].kind, Kind::optimisation);
    EXPECT_EQ(parsed[6].nvrtc, "-DM");
    // The NVRTC arguments leave out what has no device meaning (-O3).
    EXPECT_EQ(options.to_arguments(), (std::vector<std::string>{"-std=c++17", "-DN=4", "-I" + dir, "--use_fast_math",
                                                                "--generate-line-info", "-DM"}));
}

TEST(CompileOptionPolicy, AnExtraStdReplacesTheFieldAndDuplicatesGoOnce) {
    CompileOptions options = CompileOptions{}.option("-std=c++14").option("--use_fast_math").option("-lineinfo");
    options.fast_math = true;
    EXPECT_EQ(options.to_arguments(),
              (std::vector<std::string>{"-std=c++14", "--use_fast_math", "--generate-line-info"}));
    options.std.clear();
    options.line_info = false;
    options.extra_options.clear();
    EXPECT_EQ(options.to_arguments(), (std::vector<std::string>{"--use_fast_math"}));
}

TEST(CompileOptionPolicy, FieldsAreCheckedLikeOptions) {
    EXPECT_NE(refusal_of([] { CompileOptions{}.define("not a name", "1").validate(); }).find("not a macro name"),
              std::string::npos);
    EXPECT_THROW(CompileOptions{}.define("X", "1\n#include <x>").validate(), InvalidArgumentError);
    EXPECT_NE(refusal_of([] {
                  CompileOptions{}.include_dir("/nonexistent/dir/xyz").validate();
              }).find("is not an existing directory"),
              std::string::npos);
    CompileOptions bad_std;
    bad_std.std = "gnu++17";
    EXPECT_NE(refusal_of([&] { bad_std.validate(); }).find("CompileOptions::std"), std::string::npos);
    CompileOptions no_std;
    no_std.std.clear();
    EXPECT_NO_THROW(no_std.validate());
    EXPECT_THROW(CompileOptions{}.option("-fplugin=x.so").validate(), InvalidArgumentError);
}

TEST(CompileOptionPolicy, TheProgramNameIsARelativeFileNameThatStaysInside) {
    for (const std::string name :
         {"kernel.cu", "vector add.cu", "matmul_tiled.cu", "a", "ünïcode.cu", "dir/kernel.cu"}) {
        CompileOptions options;
        options.program_name = name;
        EXPECT_NO_THROW(options.validate()) << name;
    }
    for (const std::string name :
         {std::string(), std::string("../kernel.cu"), std::string("/tmp/kernel.cu"), std::string("dir/../../k.cu"),
          std::string("a\"b.cu"), std::string("a\\b.cu"), std::string("a\nb.cu"), std::string("a\0b", 3),
          std::string(256, 'k'), std::string("."), std::string("..")}) {
        CompileOptions options;
        options.program_name = name;
        EXPECT_NE(refusal_of([&] { options.validate(); }).find("CompileOptions::program_name"), std::string::npos)
            << name;
    }
}

TEST(CompileOptionPolicy, HeaderNamesStayInsideAndComeOnce) {
    EXPECT_NO_THROW(CompileOptions{}.header("params.h", "").header("util/math.cuh", "").validate());
    for (const char* name : {"../x.h", "/etc/x.h", "a/../../x.h", "", "a//b.h", "x\".h", "<x.h>", "a\nb.h"}) {
        EXPECT_NE(refusal_of([&] { CompileOptions{}.header(name, "int x;").validate(); }).find("is not a header name"),
                  std::string::npos)
            << name;
    }
    EXPECT_NE(refusal_of([] { CompileOptions{}.header("a.h", "1").header("a.h", "2").validate(); }).find("given twice"),
              std::string::npos);
}

TEST(CompileOptionPolicy, NameExpressionsAndTargetsAreChecked) {
    EXPECT_NO_THROW(CompileOptions{}.name_expression("axpy<float>").name_expression("ns::scale<2, (int)3>").validate());
    for (const char* expression : {"", "k\n#include \"/etc/passwd\"", "k<\"x\">", "k#", "k\\"}) {
        EXPECT_THROW(CompileOptions{}.name_expression(expression).validate(), InvalidArgumentError) << expression;
    }
    CompileOptions target;
    for (const char* good : {"", "sm_90", "compute_80", "sm_90a"}) {
        target.target = good;
        EXPECT_NO_THROW(target.validate()) << good;
    }
    for (const char* bad : {"sm_90 -fplugin=x", "../sm", "sm_90;"}) {
        target.target = bad;
        EXPECT_THROW(target.validate(), InvalidArgumentError) << bad;
    }
}

TEST(SourcePolicy, TrigraphsAreRefusedWhereTheStandardWouldReadThem) {
    const std::string source = "?\?=include \"/etc/passwd\"\n";
    CompileOptions cxx14;
    cxx14.std = "c++14";
    const std::string message = refusal_of([&] { detail::check_source_policy(source, cxx14); });
    EXPECT_NE(message.find("trigraph"), std::string::npos) << message;
    EXPECT_NE(message.find("kernel.cu"), std::string::npos) << message;
    EXPECT_THROW(detail::check_source_policy("int x;", CompileOptions{}.option("-std=c++11").header("h.h", "?\?/")),
                 InvalidArgumentError);
    // From C++17 there are no trigraphs: the text means what it says.
    EXPECT_NO_THROW(detail::check_source_policy(source, CompileOptions{}));
    EXPECT_NO_THROW(detail::check_source_policy("const char* s = \"what??\";", cxx14));
}

}  // namespace
}  // namespace gpukit
