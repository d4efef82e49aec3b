// src/util/private_directory.hpp: a directory only this user can enter, for files another local
// user must not predict, replace or read (the simulator's kernel modules).
//
// Made with mkdtemp (mode 0700) under $TMPDIR (or /tmp), so its name cannot be guessed ahead; each
// file in it is created with O_CREAT|O_EXCL|O_NOFOLLOW, so a file or symlink planted at its name
// makes the write fail instead of being followed. The directory and what is in it go when the
// object is destroyed, by the process that made it only (a forked child's exit leaves it alone).
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string_view>

namespace gpukit::detail {

class PrivateDirectory {
public:
    // `prefix`: the start of the directory's name ("gpukit-sim"). Throws BackendUnavailableError
    // saying where and why when it cannot be made.
    explicit PrivateDirectory(std::string_view prefix);
    // Adopts a directory made by another process of this program (the simulator's device process
    // made it and died), to remove it.
    static PrivateDirectory adopt(std::filesystem::path path);
    ~PrivateDirectory();
    PrivateDirectory(PrivateDirectory&& other) noexcept;
    PrivateDirectory& operator=(PrivateDirectory&&) = delete;
    PrivateDirectory(const PrivateDirectory&) = delete;
    PrivateDirectory& operator=(const PrivateDirectory&) = delete;

    const std::filesystem::path& path() const noexcept { return path_; }

    // Writes `bytes` to a new file `name` (a plain name, no '/') in the directory, with `mode`;
    // returns its path. Throws BackendUnavailableError when the name exists or the write fails.
    std::filesystem::path write_file(std::string_view name, std::string_view bytes, mode_t mode = 0600) const;

    // Removes the directory and what it holds now (a no-op for a moved-from object or in another
    // process than the one that made it). Never throws.
    void remove() noexcept;
    // Removes it when the program exits, for a directory whose owner lives to the end.
    void remove_at_exit() const;

private:
    PrivateDirectory() = default;
    std::filesystem::path path_;
    pid_t owner_ = 0;
};

}  // namespace gpukit::detail
