// tests/core/warnings_test.cpp: warnings go to the handler set, which may throw.
#include "gpukit/warnings.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/warnings.hpp"

namespace gpukit {
namespace {

// Sets a handler for one test and puts the one before back.
class WarningsTest : public ::testing::Test {
protected:
    void TearDown() override { set_warning_handler(std::move(before_)); }
    void use(WarningHandler handler) { before_ = set_warning_handler(std::move(handler)); }

private:
    WarningHandler before_;
};

TEST_F(WarningsTest, GoToTheHandlerSetWithTheirCategory) {
    std::vector<std::string> said;
    use([&](const Warning& w) {
        EXPECT_EQ(w.category, WarningCategory::runtime);
        said.emplace_back(w.message);
    });
    detail::warn(WarningCategory::runtime, "Mean of empty slice");
    detail::warn(WarningCategory::runtime, "Mean of empty slice");
    EXPECT_EQ(said, (std::vector<std::string>{"Mean of empty slice", "Mean of empty slice"}));
}

TEST_F(WarningsTest, SettingOneReturnsTheOneBefore) {
    int first = 0;
    use([&](const Warning&) { ++first; });
    WarningHandler previous = set_warning_handler([](const Warning&) {});
    ASSERT_TRUE(previous);
    previous(Warning{WarningCategory::runtime, "x"});
    EXPECT_EQ(first, 1);
}

TEST_F(WarningsTest, AThrowingHandlerThrowsFromTheWarning) {
    use([](const Warning& w) { throw std::runtime_error(std::string(w.message)); });
    EXPECT_THROW(detail::warn(WarningCategory::runtime, "Degrees of freedom <= 0 for slice"), std::runtime_error);
}

TEST_F(WarningsTest, AnEmptyHandlerRestoresTheDefault) {
    use({});
    testing::internal::CaptureStderr();
    detail::warn(WarningCategory::runtime, "a default warning of this test");
    detail::warn(WarningCategory::runtime, "a default warning of this test");
    const std::string written = testing::internal::GetCapturedStderr();
    EXPECT_EQ(written, "gpukit: warning: RuntimeWarning: a default warning of this test\n");  // once
}

}  // namespace
}  // namespace gpukit
