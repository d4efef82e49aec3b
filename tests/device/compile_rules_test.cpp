// tests/device/compile_rules_test.cpp: on every backend, a compile takes only the options of the
// one allowlist, and reads headers only from string headers and the -I roots: a compile error
// never quotes a file the source was not allowed to include.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

namespace fs = std::filesystem;

class CompileRules : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        if (IsSkipped()) return;
        static int counter = 0;
        directory_ = fs::temp_directory_path() /
                     ("gpukit-compile-rules-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        fs::create_directories(directory_ / "include");
        fs::permissions(directory_, fs::perms::owner_all);
        std::mt19937_64 random(std::random_device{}());
        secret_ = "int secret_" + std::to_string(random()) + " = broken;";
        write("secret.h", secret_ + "\n");
        write("include/fine.h", "#define FINE 3\n");
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(directory_, ignored);
    }
    void write(const std::string& name, const std::string& text) const { std::ofstream(directory_ / name) << text; }
    // The CompileError's log for `source`; fails the test when it compiles.
    std::string log_of(const std::string& source, const CompileOptions& options) const {
        try {
            Module::compile(source, options);
        } catch (const CompileError& error) {
            return error.log();
        }
        ADD_FAILURE() << "compiled:\n" << source;
        return {};
    }

    fs::path directory_;
    std::string secret_;
};

TEST_F(CompileRules, AnIncludeOutsideTheRootsIsNotFoundOrNotAllowedAndQuotesNothing) {
    const CompileOptions options = CompileOptions{}.include_dir(directory_ / "include");
    const std::string secret = (directory_ / "secret.h").string();
    for (const std::string& include :
         {"\"" + secret + "\"", "<" + secret + ">", std::string("\"../secret.h\""), std::string("<../secret.h>"),
          std::string("\"/etc/passwd\""), std::string("\"/dev/zero\""), std::string("\"/nonexistent/x.h\"")}) {
        const std::string log = log_of("#include " + include + "\n__global__ void k() {}\n", options);
        EXPECT_EQ(log.find("broken"), std::string::npos) << log;
        EXPECT_EQ(log.find("root:"), std::string::npos) << log;
        expect_contains(log, "kernel.cu:1: error: #include " + include + ": not found or not allowed");
    }
    // What the roots hold compiles.
    EXPECT_NO_THROW(
        Module::compile("#include \"fine.h\"\nextern \"C\" __global__ void k(int* x) { *x = FINE; }\n", options));
}

TEST_F(CompileRules, OptionsOutsideTheAllowlistAreRefusedBeforeCompiling) {
    const std::string message = GPUKIT_MESSAGE_OF(
        InvalidArgumentError, Module::compile("__global__ void k() {}\n", CompileOptions{}.option("-fplugin=x.so")));
    expect_contains(message, "'-fplugin=x.so' is not accepted");
    expect_contains(message, "Accepted options: -D<name>");
    EXPECT_THROW(Module::compile("__global__ void k() {}\n", CompileOptions{}.option("-Xptxas")), InvalidArgumentError);
    CompileOptions named;
    named.program_name = "../kernel.cu";
    EXPECT_THROW(Module::compile("__global__ void k() {}\n", named), InvalidArgumentError);
}

TEST_F(CompileRules, TheAllowlistCompilesOnEveryBackend) {
    const CompileOptions options = CompileOptions{}
                                       .option("-DSCALE=3")
                                       .option("--define-macro=OFFSET=5")
                                       .option("-UNDEBUG")
                                       .option("-I" + (directory_ / "include").string())
                                       .option("-std=c++17")
                                       .option("-O3")
                                       .option("--use_fast_math")
                                       .option("--fmad=true")
                                       .option("-lineinfo")
                                       .option("-maxrregcount=64")
                                       .option("--restrict")
                                       .option("-w");
    const Module module = Module::compile(
        "#include \"fine.h\"\nextern \"C\" __global__ void k(int* x) { x[threadIdx.x] = SCALE * FINE + OFFSET; }\n",
        options);
    EXPECT_EQ(module.kernel_names(), std::vector<std::string>{"k"});
}

}  // namespace
}  // namespace gpukit::testing
