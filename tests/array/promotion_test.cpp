// tests/array/promotion_test.cpp: NumPy 2's promotion and casting, compared with NumPy's own answers
// (data/promotion_table.inc, written by data/make_promotion_table.py), and bfloat16's rows by hand.
#include "gpukit/promotion.hpp"

#include <gtest/gtest.h>

#include "gpukit/error.hpp"

namespace gpukit {
namespace {

PythonScalar scalar_named(std::string_view name) {
    if (name == "bool") return PythonScalar::boolean;
    if (name == "int") return PythonScalar::integer;
    if (name == "float") return PythonScalar::floating;
    return PythonScalar::complex;
}

TEST(Promotion, EveryPairAgreesWithNumPy) {
    int rows = 0;
    const auto promote_row = [&](std::string_view a, std::string_view b, std::string_view expected) {
        EXPECT_EQ(to_string(promote_types(parse_dtype(a), parse_dtype(b))), expected) << a << " + " << b;
        EXPECT_EQ(to_string(result_type({parse_dtype(a), parse_dtype(b)})), expected) << a << " + " << b;
        ++rows;
    };
    const auto cast_row = [&](std::string_view from, std::string_view to, std::string_view casting, bool expected) {
        EXPECT_EQ(can_cast(parse_dtype(from), parse_dtype(to), parse_casting(casting)), expected)
            << from << " -> " << to << " casting=" << casting;
        ++rows;
    };
    const auto weak_row = [&](std::string_view array, std::string_view scalar, std::string_view expected) {
        const PythonScalar s = scalar_named(scalar);
        const DType result = array.empty() ? result_type({}, {s}) : result_type({parse_dtype(array)}, {s});
        EXPECT_EQ(to_string(result), expected) << array << " with a Python " << scalar;
        ++rows;
    };
#include "data/promotion_table.inc"
    EXPECT_EQ(rows, 14 * 14 + 14 * 14 * 5 + 14 * 4 + 4);
}

TEST(Promotion, Bfloat16PromotesAsMlDtypes) {
    EXPECT_EQ(promote_types(DType::bfloat16, DType::float16), DType::float32);
    EXPECT_EQ(promote_types(DType::bfloat16, DType::bfloat16), DType::bfloat16);
    EXPECT_EQ(promote_types(DType::bfloat16, DType::float32), DType::float32);
    EXPECT_EQ(promote_types(DType::bfloat16, DType::float64), DType::float64);
    EXPECT_EQ(promote_types(DType::bfloat16, DType::bool_), DType::bfloat16);
    EXPECT_EQ(promote_types(DType::bfloat16, DType::int8), DType::bfloat16);
    EXPECT_EQ(promote_types(DType::uint8, DType::bfloat16), DType::bfloat16);
    EXPECT_EQ(promote_types(DType::bfloat16, DType::int16), DType::float32);
    EXPECT_EQ(promote_types(DType::bfloat16, DType::int32), DType::float64);
    EXPECT_EQ(promote_types(DType::bfloat16, DType::complex64), DType::complex64);
    EXPECT_EQ(result_type({DType::bfloat16}, {PythonScalar::floating}), DType::bfloat16);
    EXPECT_EQ(result_type({DType::bfloat16}, {PythonScalar::complex}), DType::complex64);
    EXPECT_TRUE(can_cast(DType::bfloat16, DType::float32));
    EXPECT_FALSE(can_cast(DType::bfloat16, DType::float16));
    EXPECT_FALSE(can_cast(DType::float16, DType::bfloat16));
    EXPECT_TRUE(can_cast(DType::float16, DType::bfloat16, Casting::same_kind));
}

TEST(Promotion, PromotionIsSymmetric) {
    for (const DTypeInfo& a : dtype_table)
        for (const DTypeInfo& b : dtype_table)
            EXPECT_EQ(promote_types(a.dtype, b.dtype), promote_types(b.dtype, a.dtype)) << a.name << " " << b.name;
}

TEST(Promotion, BadInputsSayWhatIsAccepted) {
    EXPECT_THROW(result_type({}, {}), InvalidArgumentError);
    try {
        parse_casting("sometimes");
        FAIL();
    } catch (const InvalidArgumentError& error) {
        EXPECT_NE(std::string(error.what()).find("same_kind"), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace gpukit
