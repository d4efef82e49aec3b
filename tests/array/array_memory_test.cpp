// tests/array/array_memory_test.cpp: the process-wide slot for a launch error met while memory went.
#include "gpukit/array_memory.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace gpukit {
namespace {

TEST(DeferredLaunchError, IsRaisedOnceAndTheFirstOneWins) {
    EXPECT_NO_THROW(raise_deferred_launch_error());
    defer_launch_error(std::make_exception_ptr(LaunchError("first")));
    defer_launch_error(std::make_exception_ptr(UsageError("second")));
    try {
        raise_deferred_launch_error();
        FAIL() << "nothing was raised";
    } catch (const LaunchError& e) {
        EXPECT_STREQ(e.what(), "first");
    }
    EXPECT_NO_THROW(raise_deferred_launch_error());
}

}  // namespace
}  // namespace gpukit
