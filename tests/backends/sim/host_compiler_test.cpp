// tests/backends/sim/host_compiler_test.cpp: the simulator's compiler keeps its files private,
// passes only checked options, and never lets a compile error quote a file the source could not
// include.
#include "backends/sim/host_compiler.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "gpukit/error.hpp"
#include "support/scoped_environment.hpp"
#include "util/private_files.hpp"

namespace gpukit::detail::sim {
namespace {

namespace fs = std::filesystem;
using gpukit::testing::ScopedEnvironment;

// A line no compile may quote: written where a source might try to read it from.
std::string secret_line() {
    std::mt19937_64 random(std::random_device{}());
    return "int the_secret_" + std::to_string(random()) + " = oops;";
}

void write(const fs::path& path, std::string_view text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

// The log of the CompileError `source` gives; fails the test when it compiles.
std::string compile_error_log(std::string_view source, const CompileOptions& options = {}) {
    try {
        host_compiler().compile(CompileInput{source, options, "host", {}});
    } catch (const CompileError& error) {
        return error.log();
    }
    ADD_FAILURE() << "compiled:\n" << source;
    return {};
}

class HostCompilerTest : public ::testing::Test {
protected:
    PrivateDirectory files_{"gpukit-host-compiler-test-"};
    const std::string secret_ = secret_line();
};

TEST_F(HostCompilerTest, ACompileThatReadsAFileOutsideTheRootsIsRefusedAndItsLogWithheld) {
    // A header under a root may include through a macro (the include rules then trust it); the
    // compiler's own list of the files it read still catches a file from elsewhere.
    fs::create_directory(files_.path() / "include");
    fs::create_directory(files_.path() / "elsewhere");
    write(files_.path() / "elsewhere" / "secret.h", secret_ + "\n");
    write(files_.path() / "include" / "config.h",
          "#define WHERE \"" + (files_.path() / "elsewhere" / "secret.h").string() + "\"\n#include WHERE\n");
    const CompileOptions options = CompileOptions{}.include_dir(files_.path() / "include");
    const std::string log = compile_error_log("#include \"config.h\"\n__global__ void k() {}\n", options);
    EXPECT_EQ(log.find(secret_), std::string::npos) << log;
    EXPECT_EQ(log.find("oops"), std::string::npos) << log;
    EXPECT_NE(log.find("secret.h, which is not allowed"), std::string::npos) << log;
    EXPECT_NE(log.find("log withheld"), std::string::npos) << log;
}

TEST_F(HostCompilerTest, HeadersUnderTheRootsAndTheSystemsOwnCompile) {
    fs::create_directory(files_.path() / "include");
    write(files_.path() / "include" / "scale.h", "#include <cstdint>\n#define SCALE 3\n");
    const CompileOptions options = CompileOptions{}.include_dir(files_.path() / "include");
    const CompiledImage image = host_compiler().compile(CompileInput{
        "#include \"scale.h\"\n#include <stdio.h>\nextern \"C\" __global__ void k(int* x) { x[0] = SCALE; }\n",
        options,
        "host",
        {}});
    EXPECT_EQ(image.format, ImageFormat::shared_object);
    EXPECT_GT(image.data.size(), 1000u);
}

TEST_F(HostCompilerTest, ALineDirectiveNamingAFileDoesNotQuoteIt) {
    write(files_.path() / "secret.cu", secret_ + "\n");
    const std::string log =
        compile_error_log("#line 1 \"" + (files_.path() / "secret.cu").string() + "\"\nint x = ;\n");
    EXPECT_NE(log.find("secret.cu:1:"), std::string::npos) << log;  // the error is still located
    EXPECT_EQ(log.find(secret_), std::string::npos) << log;
}

TEST_F(HostCompilerTest, ErrorsQuoteTheSourceNotAFileOfTheSameNameInTheCurrentDirectory) {
    // GCC quotes a diagnostic's line from the file named by `#line`: it used to read ./kernel.cu.
    write(files_.path() / "kernel.cu", secret_ + "\n");
    const fs::path previous = fs::current_path();
    fs::current_path(files_.path());
    const std::string log = compile_error_log("int x = undeclared_name;\n");
    fs::current_path(previous);
    EXPECT_NE(log.find("kernel.cu:1:"), std::string::npos) << log;
    EXPECT_EQ(log.find(secret_), std::string::npos) << log;
    EXPECT_NE(log.find("int x = undeclared_name;"), std::string::npos) << log;  // the right line instead
}

TEST_F(HostCompilerTest, OptionsOutsideTheAllowlistNeverReachTheCompiler) {
    const fs::path plugin = files_.path() / "plugin.so";
    for (const std::string& option : {"-fplugin=" + plugin.string(), std::string("-B") + files_.path().string(),
                                      "-Wp,-MD," + (files_.path() / "out").string(), std::string("-o/dev/null")}) {
        const CompileOptions options = CompileOptions{}.option(option);
        EXPECT_THROW(host_compiler().compile(CompileInput{"__global__ void k() {}\n", options, "host", {}}),
                     InvalidArgumentError)
            << option;
    }
    EXPECT_FALSE(fs::exists(files_.path() / "out"));
}

TEST_F(HostCompilerTest, NvrtcOptionsWithoutAHostMeaningAreNotedInTheLog) {
    const CompileOptions options =
        CompileOptions{}.option("-maxrregcount=32").option("--restrict").option("--ftz=true").option("-O3");
    const CompiledImage image = host_compiler().compile(
        CompileInput{"extern \"C\" __global__ void k(float* x) { x[0] = 1; }\n", options, "host", {}});
    EXPECT_NE(image.log.find("ignoring --maxrregcount=32"), std::string::npos) << image.log;
    EXPECT_NE(image.log.find("ignoring --restrict"), std::string::npos) << image.log;
    EXPECT_NE(image.log.find("ignoring --ftz=true"), std::string::npos) << image.log;
    EXPECT_EQ(image.log.find("-O3"), std::string::npos) << image.log;  // a host option: used
}

TEST_F(HostCompilerTest, ScratchFilesLiveInAPrivateDirectoryRemovedAfterTheCompile) {
    const fs::path temporary = files_.path() / "tmp";
    fs::create_directory(temporary);
    const ScopedEnvironment tmpdir("TMPDIR", temporary.string());
    host_compiler().compile(CompileInput{"extern \"C\" __global__ void k(int* x) { x[0] = 7; }\n", {}, "host", {}});
    compile_error_log("int broken = ;\n");
    EXPECT_TRUE(fs::is_empty(temporary)) << "left behind in " << temporary;
}

TEST_F(HostCompilerTest, KeptFilesGoOnlyToADirectoryThatIsYours) {
    const fs::path keep = files_.path() / "keep";
    {
        const ScopedEnvironment variable("GPUKIT_SIM_KEEP", keep.string());
        host_compiler().compile(CompileInput{"extern \"C\" __global__ void k(int* x) { x[0] = 7; }\n",
                                             CompileOptions{}.header("params.h", "#define P 1\n"),
                                             "host",
                                             {}});
        compile_error_log("int broken = ;\n");
    }
    struct stat status {};
    ASSERT_EQ(stat(keep.c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 07777, 0700u);
    int kept = 0;
    for (const auto& copy : fs::directory_iterator(keep)) {
        ++kept;
        EXPECT_TRUE(fs::exists(copy.path() / "module.cpp")) << copy.path();
        EXPECT_TRUE(fs::exists(copy.path() / "user" / "kernel.cu")) << copy.path();
        ASSERT_EQ(stat((copy.path() / "module.cpp").c_str(), &status), 0);
        EXPECT_EQ(status.st_mode & 077, 0u);
    }
    EXPECT_EQ(kept, 2);  // the compile that worked and the one that failed

    const fs::path shared = files_.path() / "shared";
    fs::create_directory(shared);
    fs::permissions(shared, fs::perms::all | fs::perms::sticky_bit);
    const ScopedEnvironment variable("GPUKIT_SIM_KEEP", shared.string());
    try {
        host_compiler().compile(CompileInput{"__global__ void k() {}\n", {}, "host", {}});
        FAIL() << "GPUKIT_SIM_KEEP accepted a directory anyone can write";
    } catch (const InvalidArgumentError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("GPUKIT_SIM_KEEP=" + shared.string()), std::string::npos) << message;
        EXPECT_NE(message.find("mode 1777"), std::string::npos) << message;
    }
    EXPECT_TRUE(fs::is_empty(shared));
}

}  // namespace
}  // namespace gpukit::detail::sim
