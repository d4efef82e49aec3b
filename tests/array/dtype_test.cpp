// tests/array/dtype_test.cpp: element types: names, sizes, kinds and DLPack codes, both ways.
#include "gpukit/dtype.hpp"

#include <gtest/gtest.h>

#include <string>

#include "gpukit/error.hpp"

namespace gpukit {
namespace {

TEST(DType, NamesSizesAndKindsAreNumPys) {
    EXPECT_EQ(to_string(DType::bool_), "bool");
    EXPECT_EQ(to_string(DType::float32), "float32");
    EXPECT_EQ(to_string(DType::bfloat16), "bfloat16");
    EXPECT_EQ(itemsize(DType::complex128), 16u);
    EXPECT_EQ(itemsize(DType::bfloat16), 2u);
    EXPECT_EQ(kind_char(DType::bool_), 'b');
    EXPECT_EQ(kind_char(DType::int16), 'i');
    EXPECT_EQ(kind_char(DType::uint64), 'u');
    EXPECT_EQ(kind_char(DType::float16), 'f');
    EXPECT_EQ(kind_char(DType::complex64), 'c');
    EXPECT_EQ(std::size(dtype_table), 15u);
}

TEST(DType, EveryNameParsesBackToItsType) {
    for (const DTypeInfo& row : dtype_table) {
        EXPECT_EQ(parse_dtype(row.name), row.dtype);
        EXPECT_EQ(dtype_named(row.name), row.dtype);
    }
    EXPECT_EQ(dtype_named("float128"), std::nullopt);
}

TEST(DType, AnUnknownNameListsTheTypesArraysHold) {
    try {
        parse_dtype("<U4");
        FAIL();
    } catch (const InvalidArgumentError& e) {
        const std::string message = e.what();
        EXPECT_EQ(message.rfind("gpukit arrays do not hold <U4; they hold bool, int8, ", 0), 0u) << message;
        EXPECT_NE(message.find("bfloat16"), std::string::npos) << message;
    }
}

TEST(DType, DLPackCodesBothWays) {
    EXPECT_EQ(to_dlpack(DType::float32), (DLPackDType{2, 32, 1}));
    EXPECT_EQ(to_dlpack(DType::bool_), (DLPackDType{6, 8, 1}));
    EXPECT_EQ(to_dlpack(DType::bfloat16), (DLPackDType{4, 16, 1}));
    EXPECT_EQ(to_dlpack(DType::complex64), (DLPackDType{5, 64, 1}));
    EXPECT_EQ(to_dlpack(DType::uint16), (DLPackDType{1, 16, 1}));
    for (const DTypeInfo& row : dtype_table) EXPECT_EQ(dtype_from_dlpack(to_dlpack(row.dtype)), row.dtype);
    EXPECT_EQ(dtype_from_dlpack({2, 32, 4}), std::nullopt);  // a vector of four floats
    EXPECT_EQ(dtype_from_dlpack({2, 8, 1}), std::nullopt);   // an 8-bit float
    EXPECT_EQ(dtype_from_dlpack({7, 8, 1}), std::nullopt);   // a code gpukit does not know
}

TEST(DType, OfCppTypes) {
    static_assert(dtype_of<float>() == DType::float32);
    static_assert(dtype_of<const double>() == DType::float64);
    static_assert(dtype_of<bool>() == DType::bool_);
    static_assert(dtype_of<std::int8_t>() == DType::int8);
    static_assert(dtype_of<unsigned short>() == DType::uint16);
    static_assert(dtype_of<long long>() == DType::int64);
    static_assert(dtype_of<std::uint64_t>() == DType::uint64);
    static_assert(dtype_of<std::complex<float>>() == DType::complex64);
    SUCCEED();
}

}  // namespace
}  // namespace gpukit
