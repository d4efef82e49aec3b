// src/util/process.hpp: runs a program and collects what it prints.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gpukit::detail {

struct ProcessResult {
    int exit_code = -1;  // -1 when it could not be started or was killed by a signal
    std::string output;  // standard output and standard error, interleaved
};

// Runs argv[0] (searched on PATH) with the arguments, no shell involved. Never throws for a
// failing program; throws BackendUnavailableError when it cannot be started at all.
ProcessResult run_process(const std::vector<std::string>& argv);
// The same, run in `directory` (relative paths in argv are then taken from there).
ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& directory);

// The first of `names` found on PATH (or an absolute path that exists), resolved; empty if none.
std::string find_program(const std::vector<std::string>& names);

}  // namespace gpukit::detail
