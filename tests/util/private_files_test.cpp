// tests/util/private_files_test.cpp: private directories, exclusive creation, checked opens, and
// what each refuses: symbolic links, FIFOs, directories, other users' and shared-writable files.
#include "util/private_files.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "gpukit/error.hpp"

namespace gpukit::detail {
namespace {

namespace fs = std::filesystem;

// A user id that is not ours: nobody (65534) as root, else there is none we can give a file to.
constexpr uid_t other_user = 65534;

std::string random_text(std::size_t size) {
    std::mt19937 random(std::random_device{}());
    std::string text(size, '\0');
    for (char& c : text) c = static_cast<char>('a' + random() % 26);
    return text;
}

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const fs::path& path, std::string_view text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

mode_t mode_of(const fs::path& path) {
    struct stat status {};
    EXPECT_EQ(lstat(path.c_str(), &status), 0) << path;
    return status.st_mode & 07777;
}

// A directory of the test's own, as PrivateDirectory makes one, to plant things in.
class PrivateFilesTest : public ::testing::Test {
protected:
    PrivateDirectory scratch_{"gpukit-private-files-test-"};
    const fs::path& dir() const { return scratch_.path(); }
};

TEST_F(PrivateFilesTest, APrivateDirectoryIsMode0700AndGoesAwayWithEverythingInIt) {
    fs::path path;
    {
        const PrivateDirectory directory("gpukit-test-");
        path = directory.path();
        EXPECT_EQ(path.parent_path(), fs::temp_directory_path());
        EXPECT_TRUE(fs::is_directory(path));
        EXPECT_EQ(mode_of(path), 0700u);
        directory.write_file("a/b/c.txt", random_text(100));
        EXPECT_EQ(mode_of(path / "a"), 0700u);
        EXPECT_EQ(mode_of(path / "a/b"), 0700u);
        EXPECT_EQ(mode_of(path / "a/b/c.txt"), 0600u);
    }
    EXPECT_FALSE(fs::exists(path));
}

TEST_F(PrivateFilesTest, TheProcessDirectoryIsOneMode0700DirectoryAndAForkedChildGetsItsOwn) {
    const fs::path path = process_private_directory().path();
    EXPECT_EQ(&process_private_directory(), &process_private_directory());
    EXPECT_EQ(path.parent_path(), fs::temp_directory_path());
    EXPECT_EQ(path.filename().string().rfind("gpukit-" + std::to_string(getpid()) + "-", 0), 0u) << path;
    EXPECT_EQ(mode_of(path), 0700u);
    // The child gets another directory, removes it when it exits, and leaves the parent's alone.
    int pipe_ends[2];
    ASSERT_EQ(pipe(pipe_ends), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(pipe_ends[0]);
        const std::string own = process_private_directory().path().string();
        const bool fine = own != path.string() && fs::is_directory(own);
        const std::string message = (fine ? "" : "!") + own;
        if (::write(pipe_ends[1], message.data(), message.size()) < 0) std::_Exit(3);
        close(pipe_ends[1]);
        std::exit(0);  // static destructors run: the child's directory goes
    }
    close(pipe_ends[1]);
    std::string from_child;
    char buffer[4096];
    for (ssize_t got; (got = ::read(pipe_ends[0], buffer, sizeof buffer)) > 0;)
        from_child.append(buffer, static_cast<std::size_t>(got));
    close(pipe_ends[0]);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_FALSE(from_child.empty());
    EXPECT_NE(from_child.front(), '!') << from_child;
    EXPECT_FALSE(fs::exists(from_child)) << from_child;
    EXPECT_TRUE(fs::is_directory(path));
    EXPECT_EQ(&process_private_directory(), &process_private_directory());
    EXPECT_EQ(process_private_directory().path(), path);
}

TEST_F(PrivateFilesTest, WriteFileCreatesWhatWasAskedAndNeverAnExistingName) {
    const std::string text = random_text(5000);
    const fs::path written = scratch_.write_file("module.cpp", text);
    EXPECT_EQ(written, dir() / "module.cpp");
    EXPECT_EQ(read(written), text);
    EXPECT_THROW(scratch_.write_file("module.cpp", "again"), Error);
    EXPECT_EQ(read(written), text);
}

TEST_F(PrivateFilesTest, WriteFileNeverFollowsAPlantedSymbolicLink) {
    const fs::path victim = dir() / "victim.txt";
    const std::string original = random_text(64);
    write(victim, original);
    fs::create_symlink(victim, dir() / "planted.so");
    EXPECT_THROW(write_new_file(dir() / "planted.so", "overwritten"), Error);
    EXPECT_THROW(scratch_.write_file("planted.so", "overwritten"), Error);
    EXPECT_EQ(read(victim), original);
    // A dangling link would make O_CREAT without O_EXCL create its target: here it is refused too.
    fs::create_symlink(dir() / "not-there-yet", dir() / "dangling");
    EXPECT_THROW(write_new_file(dir() / "dangling", "created"), Error);
    EXPECT_FALSE(fs::exists(dir() / "not-there-yet"));
}

TEST_F(PrivateFilesTest, NamesThatLeaveTheDirectoryAreRefused) {
    for (std::string_view name : {"../escape.txt", "/tmp/absolute.txt", "a/../../x", "", "a//b", "./a", "a/."}) {
        EXPECT_FALSE(is_contained_name(name)) << name;
        EXPECT_THROW(scratch_.write_file(name, "x"), InvalidArgumentError) << name;
    }
    EXPECT_FALSE(is_contained_name(std::string_view("a\0b", 3)));
    for (std::string_view name : {"a", "a/b.h", "util/math/x.cuh", "..a", "a..b"}) EXPECT_TRUE(is_contained_name(name));
    EXPECT_FALSE(fs::exists(dir().parent_path() / "escape.txt"));
}

TEST(TrustProblem, NamesTheOwnerAndTheModeThatMakeAFileUntrusted) {
    struct stat status {};
    status.st_uid = 1000;
    status.st_mode = S_IFREG | 0644;
    EXPECT_EQ(trust_problem(status, 1000), std::nullopt);
    status.st_mode = S_IFREG | 0600;
    EXPECT_EQ(trust_problem(status, 1000), std::nullopt);

    status.st_mode = S_IFREG | 0664;
    EXPECT_EQ(trust_problem(status, 1000).value(), "writable by its group (mode 0664)");
    status.st_mode = S_IFDIR | 01777;
    EXPECT_EQ(trust_problem(status, 1000).value(), "writable by its group and others (mode 1777)");
    status.st_mode = S_IFREG | 0602;
    EXPECT_EQ(trust_problem(status, 1000).value(), "writable by others (mode 0602)");

    status.st_mode = S_IFREG | 0600;
    const std::string other = trust_problem(status, 1001).value();
    EXPECT_NE(other.find("owned by "), std::string::npos) << other;
    EXPECT_NE(other.find("uid 1000"), std::string::npos) << other;
    EXPECT_NE(other.find("not by you"), std::string::npos) << other;
    EXPECT_NE(other.find("uid 1001"), std::string::npos) << other;
    status.st_mode = S_IFREG | 0666;
    const std::string both = trust_problem(status, 1001).value();
    EXPECT_NE(both.find("owned by "), std::string::npos) << both;
    EXPECT_NE(both.find("and writable by its group and others (mode 0666)"), std::string::npos) << both;
}

TEST_F(PrivateFilesTest, OpenOwnedFileOpensOnlyARegularFileOfOurs) {
    const std::string text = random_text(3000);
    write(dir() / "entry", text);
    fs::permissions(dir() / "entry", fs::perms::owner_read | fs::perms::owner_write);
    OwnedFile opened = open_owned_file(dir(), "entry", O_RDONLY);
    ASSERT_EQ(opened.outcome, OwnedFile::opened) << opened.problem;
    EXPECT_EQ(read_descriptor(opened.fd.get()).value(), text);

    EXPECT_EQ(open_owned_file(dir(), "missing", O_RDONLY).outcome, OwnedFile::absent);
    EXPECT_EQ(open_owned_file(dir() / "no-such-directory", "entry", O_RDONLY).outcome, OwnedFile::absent);
    EXPECT_EQ(open_owned_file(dir(), "no-such-directory/entry", O_RDONLY).outcome, OwnedFile::absent);
}

TEST_F(PrivateFilesTest, OpenOwnedFileRefusesASymbolicLinkToAFileElsewhere) {
    const PrivateDirectory elsewhere("gpukit-private-files-elsewhere-");
    write(elsewhere.path() / "target", "not an entry");
    fs::create_symlink(elsewhere.path() / "target", dir() / "entry");
    const OwnedFile file = open_owned_file(dir(), "entry", O_RDONLY);
    EXPECT_EQ(file.outcome, OwnedFile::refused);
    EXPECT_NE(file.problem.find((dir() / "entry").string() + " is a symbolic link"), std::string::npos) << file.problem;
    // Creating through it (O_CREAT) is refused as well, and the target is untouched.
    EXPECT_EQ(open_owned_file(dir(), "entry", O_RDWR | O_CREAT).outcome, OwnedFile::refused);
    EXPECT_EQ(read(elsewhere.path() / "target"), "not an entry");
}

TEST_F(PrivateFilesTest, OpenOwnedFileRefusesAFifoWithoutBlocking) {
    ASSERT_EQ(mkfifo((dir() / "entry").c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    const OwnedFile file = open_owned_file(dir(), "entry", O_RDONLY);
    const OwnedFile created = open_owned_file(dir(), "entry", O_RDWR | O_CREAT);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_EQ(file.outcome, OwnedFile::refused);
    EXPECT_NE(file.problem.find("is a FIFO, not a regular file"), std::string::npos) << file.problem;
    EXPECT_EQ(created.outcome, OwnedFile::refused);
}

TEST_F(PrivateFilesTest, OpenOwnedFileRefusesADirectoryAndADevice) {
    fs::create_directory(dir() / "entry");
    const OwnedFile directory = open_owned_file(dir(), "entry", O_RDONLY);
    EXPECT_EQ(directory.outcome, OwnedFile::refused);
    EXPECT_NE(directory.problem.find("is a directory, not a regular file"), std::string::npos) << directory.problem;
    fs::create_symlink("/dev/zero", dir() / "device");
    EXPECT_EQ(open_owned_file(dir(), "device", O_RDONLY).outcome, OwnedFile::refused);
    if (geteuid() != 0) return;  // /dev is root's: as anyone else, it is refused for that first
    const OwnedFile zero = open_owned_file("/dev", "zero", O_RDONLY);
    EXPECT_EQ(zero.outcome, OwnedFile::refused);
    EXPECT_NE(zero.problem.find("is a character device"), std::string::npos) << zero.problem;
}

TEST_F(PrivateFilesTest, OpenOwnedFileRefusesAFileOthersCanWrite) {
    write(dir() / "entry", random_text(10));
    fs::permissions(dir() / "entry", fs::perms::owner_all | fs::perms::group_write);
    OwnedFile file = open_owned_file(dir(), "entry", O_RDONLY);
    EXPECT_EQ(file.outcome, OwnedFile::refused);
    EXPECT_NE(file.problem.find("writable by its group (mode 0720)"), std::string::npos) << file.problem;
    fs::permissions(dir() / "entry", fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_write);
    file = open_owned_file(dir(), "entry", O_RDONLY);
    EXPECT_NE(file.problem.find("writable by others (mode 0602)"), std::string::npos) << file.problem;
}

TEST_F(PrivateFilesTest, OpenOwnedFileRefusesADirectoryOnTheWayThatIsALinkOrShared) {
    const PrivateDirectory elsewhere("gpukit-private-files-elsewhere-");
    write(elsewhere.path() / "entry", "planted");
    fs::create_symlink(elsewhere.path(), dir() / "ab");
    OwnedFile file = open_owned_file(dir(), "ab/entry", O_RDONLY);
    EXPECT_EQ(file.outcome, OwnedFile::refused);
    EXPECT_NE(file.problem.find("is a symbolic link, not a directory"), std::string::npos) << file.problem;

    fs::create_directory(dir() / "cd");
    write(dir() / "cd" / "entry", "fine");
    fs::permissions(dir() / "cd", fs::perms::all);  // 0777: anyone could have swapped the entry
    file = open_owned_file(dir(), "cd/entry", O_RDONLY);
    EXPECT_EQ(file.outcome, OwnedFile::refused);
    EXPECT_NE(file.problem.find("mode 0777"), std::string::npos) << file.problem;
    // The base directory itself is checked too.
    fs::permissions(dir(), fs::perms::owner_all | fs::perms::others_write);
    EXPECT_EQ(open_owned_file(dir(), "anything", O_RDONLY).outcome, OwnedFile::refused);
    fs::permissions(dir(), fs::perms::owner_all);
}

TEST_F(PrivateFilesTest, OpenOwnedFileRefusesAnotherUsersFile) {
    if (geteuid() != 0) GTEST_SKIP() << "only root can give a file to another user; TrustProblem covers the check";
    write(dir() / "entry", "another user's");
    ASSERT_EQ(chown((dir() / "entry").c_str(), other_user, other_user), 0);
    const OwnedFile file = open_owned_file(dir(), "entry", O_RDONLY);
    EXPECT_EQ(file.outcome, OwnedFile::refused);
    EXPECT_NE(file.problem.find("owned by "), std::string::npos) << file.problem;
    EXPECT_NE(file.problem.find("uid 65534"), std::string::npos) << file.problem;
}

TEST_F(PrivateFilesTest, OpenOwnedFileCreatesAMissingFileMode0600) {
    const OwnedFile file = open_owned_file(dir(), "stats", O_RDWR | O_CREAT);
    ASSERT_EQ(file.outcome, OwnedFile::opened) << file.problem;
    EXPECT_EQ(mode_of(dir() / "stats"), 0600u);
}

TEST_F(PrivateFilesTest, MakePrivateDirectoryCreatesMode0700AndRefusesWhatIsNotPrivate) {
    const fs::path made = dir() / "x" / "y" / "cache";
    EXPECT_EQ(make_private_directory(made), std::nullopt);
    EXPECT_EQ(mode_of(made), 0700u);
    EXPECT_EQ(mode_of(dir() / "x"), 0700u);
    EXPECT_EQ(make_private_directory(made), std::nullopt);  // already there: fine

    fs::create_directory(dir() / "shared");
    fs::permissions(dir() / "shared", fs::perms::all | fs::perms::sticky_bit);
    const std::string shared = make_private_directory(dir() / "shared").value();
    EXPECT_NE(shared.find((dir() / "shared").string()), std::string::npos) << shared;
    EXPECT_NE(shared.find("writable by its group and others (mode 1777)"), std::string::npos) << shared;

    write(dir() / "file", "x");
    EXPECT_NE(make_private_directory(dir() / "file").value().find("is a regular file, not a directory"),
              std::string::npos);
}

TEST_F(PrivateFilesTest, CopyToCopiesFilesAndDirectoriesButNoLink) {
    const std::string text = random_text(2000);
    scratch_.write_file("prelude/gpukit_sim.h", text);
    scratch_.write_file("module.cpp", "int x;");
    const PrivateDirectory elsewhere("gpukit-private-files-elsewhere-");
    write(elsewhere.path() / "secret", "not to be copied");
    fs::create_symlink(elsewhere.path() / "secret", dir() / "link");

    const PrivateDirectory keep("gpukit-private-files-keep-");
    const fs::path copy = scratch_.copy_to(keep.path() / "kept");
    EXPECT_EQ(copy, keep.path() / "kept" / dir().filename());
    EXPECT_EQ(read(copy / "prelude/gpukit_sim.h"), text);
    EXPECT_EQ(read(copy / "module.cpp"), "int x;");
    EXPECT_FALSE(fs::exists(fs::symlink_status(copy / "link")));
    EXPECT_EQ(mode_of(keep.path() / "kept"), 0700u);
    EXPECT_EQ(mode_of(copy), 0700u);
    EXPECT_EQ(mode_of(copy / "prelude"), 0700u);
    EXPECT_EQ(mode_of(copy / "module.cpp"), 0600u);
    // The same copy again would need a new directory of the same name: refused, not merged.
    EXPECT_THROW(scratch_.copy_to(keep.path() / "kept"), Error);
}

TEST_F(PrivateFilesTest, CopyToRefusesADestinationOthersCanWrite) {
    scratch_.write_file("module.cpp", "int x;");
    const PrivateDirectory keep("gpukit-private-files-keep-");
    fs::permissions(keep.path(), fs::perms::all);
    try {
        scratch_.copy_to(keep.path());
        FAIL() << "a directory anyone can write was accepted";
    } catch (const InvalidArgumentError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find(keep.path().string()), std::string::npos) << message;
        EXPECT_NE(message.find("mode 0777"), std::string::npos) << message;
    }
    EXPECT_TRUE(fs::is_empty(keep.path()));
}

TEST_F(PrivateFilesTest, CopyToRefusesAnotherUsersDestination) {
    if (geteuid() != 0) GTEST_SKIP() << "only root can give a directory to another user; TrustProblem covers it";
    const PrivateDirectory keep("gpukit-private-files-keep-");
    ASSERT_EQ(chown(keep.path().c_str(), other_user, other_user), 0);
    EXPECT_THROW(scratch_.copy_to(keep.path()), InvalidArgumentError);
    EXPECT_TRUE(fs::is_empty(keep.path()));
}

}  // namespace
}  // namespace gpukit::detail
