// tests/core/version_test.cpp: gpukit states its version.
#include "gpukit/version.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace gpukit {
namespace {

TEST(Version, IsMajorMinorPatch) {
    EXPECT_TRUE(std::regex_match(std::string(version()), std::regex(R"(\d+\.\d+\.\d+)"))) << version();
}

}  // namespace
}  // namespace gpukit
