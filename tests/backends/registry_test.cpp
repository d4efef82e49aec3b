// tests/backends/registry_test.cpp: the backends describe themselves, and the registry answers by name.
#include "gpukit/backend.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "backends/backend.hpp"
#include "gpukit/error.hpp"

namespace gpukit {
namespace {

TEST(Registry, EveryBackendDescribesItself) {
    ASSERT_FALSE(backends().empty());
    std::set<std::string> names;
    bool built_seen_after_unbuilt = false, unbuilt_seen = false;
    for (const BackendInfo& info : backends()) {
        EXPECT_TRUE(names.insert(info.name).second) << "two backends named " << info.name;
        EXPECT_TRUE(std::regex_match(info.name, std::regex("[a-z][a-z0-9_]*"))) << info.name;
        EXPECT_NE(info.name, "auto");
        EXPECT_EQ(&backend_info(info.name), &info);
        if (!info.built) {
            unbuilt_seen = true;
            EXPECT_FALSE(backend_unavailable_reason(info.name).empty()) << info.name << " is not built but usable";
            continue;
        }
        built_seen_after_unbuilt |= unbuilt_seen;
        EXPECT_FALSE(info.description.empty()) << info.name;
        EXPECT_FALSE(info.device_label.empty()) << info.name;
        const int type = info.capabilities.dlpack_device_type;
        EXPECT_TRUE(type == 1 || type == 2) << info.name << ": DLPack device type " << type;
    }
    EXPECT_FALSE(built_seen_after_unbuilt) << "the built backends come first";
}

TEST(Registry, TheSimulatorIsAlwaysBuilt) {
    int simulated = 0;
    for (const BackendInfo& info : backends()) simulated += info.built && info.capabilities.simulated;
    EXPECT_EQ(simulated, 1);
}

TEST(Registry, UnknownNamesAreRefusedWithTheNamesThereAre) {
    try {
        backend_info("gpu");
        FAIL() << "an unknown backend was found";
    } catch (const InvalidArgumentError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("Unknown backend 'gpu'"), std::string::npos) << message;
        for (const BackendInfo& info : backends()) EXPECT_NE(message.find(info.name), std::string::npos) << message;
    }
    EXPECT_THROW(select_backend("gpu"), InvalidArgumentError);
    EXPECT_NE(backend_unavailable_reason("gpu").find("Unknown backend"), std::string::npos);
    EXPECT_TRUE(backend_toolchain("gpu").empty());
}

TEST(Registry, BuiltBackendsAreTheDescriptorsOfTheBuild) {
    const auto built = detail::built_backends();
    std::size_t count = 0;
    for (const BackendInfo& info : backends()) count += info.built;
    ASSERT_EQ(built.size(), count);
    for (std::size_t i = 0; i < built.size(); ++i) {
        EXPECT_EQ(built[i]->info.name, backends()[i].name);
        EXPECT_NE(built[i]->create, nullptr);
        EXPECT_NE(built[i]->compiler, nullptr);
        EXPECT_NE(built[i]->toolchain, nullptr);
    }
    for (const auto& unbuilt : detail::unbuilt_backends()) EXPECT_FALSE(unbuilt.reason.empty()) << unbuilt.name;
}

// Each part of each toolchain is either usable, with a path and a version, or unusable, saying why.
TEST(Registry, ToolchainPartsAreUsableOrSayWhyNot) {
    for (const BackendInfo& info : backends()) {
        if (!info.built) continue;
        const auto parts = backend_toolchain(info.name);
        EXPECT_FALSE(parts.empty()) << info.name;
        for (const ToolchainPart& part : parts) {
            EXPECT_FALSE(part.role.empty()) << info.name;
            if (!part.problem.empty()) {
                EXPECT_TRUE(part.version.empty()) << info.name << " " << part.role << ": " << part.version;
                continue;
            }
            EXPECT_TRUE(std::regex_match(part.version, std::regex(R"(.*\d+\.\d+.*)")))
                << info.name << " " << part.role << ": " << part.version;
            EXPECT_EQ(part.version.find('\n'), std::string::npos) << "one line: " << part.version;
            if (!part.path.empty()) EXPECT_TRUE(std::filesystem::exists(part.path)) << part.path;
        }
    }
}

}  // namespace
}  // namespace gpukit
