// tests/core/kernel_param_test.cpp: what a parameter's declaration says it takes (KernelParam::kind,
// pointee, takes_array_of), for declarations as src/source/kernel_declarations renders them.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "gpukit/kernel.hpp"

namespace gpukit {
namespace {

KernelParam declared(std::string type) { return KernelParam{0, 8, std::move(type), "p"}; }

TEST(KernelParam, KindsOfDeclarations) {
    const std::pair<const char*, ParamKind> rows[] = {
        {"", ParamKind::unknown},
        {"float *", ParamKind::pointer},
        {"const float * __restrict__", ParamKind::pointer},
        {"const float * const", ParamKind::pointer},
        {"float [16]", ParamKind::pointer},
        {"int [4][4]", ParamKind::pointer},
        {"T *", ParamKind::pointer},
        {"float * *", ParamKind::pointer},
        {"int", ParamKind::signed_integer},
        {"const int", ParamKind::signed_integer},
        {"long long", ParamKind::signed_integer},
        {"std::int64_t", ParamKind::signed_integer},
        {"unsigned", ParamKind::unsigned_integer},
        {"unsigned long long", ParamKind::unsigned_integer},
        {"const size_t", ParamKind::unsigned_integer},
        {"bool", ParamKind::boolean},
        {"float", ParamKind::floating},
        {"__half", ParamKind::floating},
        {"Pair", ParamKind::other},
        {"struct Pair", ParamKind::other},
        {"T", ParamKind::other},
        {"int &", ParamKind::other},
        {"float (&)[8]", ParamKind::other},
    };
    for (const auto& [type, kind] : rows) EXPECT_EQ(declared(type).kind(), kind) << "'" << type << "'";
}

TEST(KernelParam, PointeesArrayElementTypes) {
    const std::pair<const char*, std::optional<DType>> rows[] = {
        {"float *", DType::float32},
        {"const double * __restrict__", DType::float64},
        {"volatile int *", DType::int32},
        {"const unsigned int * __restrict__", DType::uint32},
        {"std::uint16_t *", DType::uint16},
        {"long *", DType::int64},
        {"const __half *", DType::float16},
        {"__nv_bfloat16 *", DType::bfloat16},
        {"bool *", DType::bool_},
        {"signed char *", DType::int8},
        {"float [16]", DType::float32},
        {"int [4][4]", DType::int32},
        // byte views and what gpukit cannot tell: any array
        {"void *", std::nullopt},
        {"const void *", std::nullopt},
        {"char *", std::nullopt},
        {"unsigned char *", std::nullopt},
        {"uint8_t *", std::nullopt},
        {"T *", std::nullopt},
        {"real *", std::nullopt},
        {"float2 *", std::nullopt},
        {"struct Particle *", std::nullopt},
        {"float * *", std::nullopt},
        {"float * [4]", std::nullopt},
        // not pointers
        {"float", std::nullopt},
        {"", std::nullopt},
    };
    for (const auto& [type, pointee] : rows) EXPECT_EQ(declared(type).pointee(), pointee) << "'" << type << "'";
}

TEST(KernelParam, ArraysTakenByAPointer) {
    const KernelParam floats = declared("const float *");
    EXPECT_TRUE(floats.takes_array_of(DType::float32));
    EXPECT_FALSE(floats.takes_array_of(DType::float64));
    EXPECT_FALSE(floats.takes_array_of(DType::int32));
    EXPECT_FALSE(floats.takes_array_of(DType::float16));
    // The signed and unsigned twins alias, as C allows; other sizes do not.
    EXPECT_TRUE(declared("int *").takes_array_of(DType::uint32));
    EXPECT_TRUE(declared("unsigned long long *").takes_array_of(DType::int64));
    EXPECT_FALSE(declared("int *").takes_array_of(DType::int64));
    EXPECT_FALSE(declared("int *").takes_array_of(DType::float32));
    EXPECT_FALSE(declared("bool *").takes_array_of(DType::uint8));
    // bfloat16's bits live in uint16 arrays where NumPy has no bfloat16.
    EXPECT_TRUE(declared("__nv_bfloat16 *").takes_array_of(DType::uint16));
    EXPECT_FALSE(declared("__nv_bfloat16 *").takes_array_of(DType::float16));
    for (const DTypeInfo& row : dtype_table) {
        for (const char* any : {"void *", "char *", "unsigned char *", "T *", "Pair *", "float * *", "Pair", ""})
            EXPECT_TRUE(declared(any).takes_array_of(row.dtype)) << any << " " << row.name;
        for (const char* scalar : {"int", "float", "bool", "size_t"})
            EXPECT_FALSE(declared(scalar).takes_array_of(row.dtype)) << scalar << " " << row.name;
    }
}

}  // namespace
}  // namespace gpukit
