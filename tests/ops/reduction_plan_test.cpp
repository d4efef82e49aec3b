// tests/ops/reduction_plan_test.cpp: reductions' axes, result shapes and layout classes.
#include "ops/reduction/plan.hpp"

#include <gtest/gtest.h>

#include "gpukit/error.hpp"

namespace gpukit::detail {
namespace {

// The layout of reducing a C-contiguous float32 array of `shape` over `axes` into a new C-ordered
// result (keepdims or not: its strides along the kept axes are the same).
ReductionLayout plan_c(const Shape& shape, std::vector<std::int64_t> axes) {
    const std::vector<bool> reduced = reduced_axes(std::span<const std::int64_t>(axes), shape.size());
    const Shape result = reduction_result_shape(shape, reduced, false);
    return plan_reduction(shape, c_strides(shape, 4), 4, reduced, c_strides(result, 4));
}

TEST(ReductionPlan, AxesAreNormalisedAndCheckedAsNumPysAre) {
    EXPECT_EQ(reduced_axes(std::nullopt, 3), (std::vector<bool>{true, true, true}));
    const std::int64_t last[] = {-1};
    EXPECT_EQ(reduced_axes(std::span<const std::int64_t>(last), 3), (std::vector<bool>{false, false, true}));
    const std::int64_t none[] = {0};
    EXPECT_EQ(reduced_axes(std::span<const std::int64_t>(none, 0), 2), (std::vector<bool>{false, false}));
    const std::int64_t out_of_range[] = {3};
    EXPECT_THROW(reduced_axes(std::span<const std::int64_t>(out_of_range), 3), AxisError);
    const std::int64_t repeated[] = {1, -2};
    EXPECT_THROW(reduced_axes(std::span<const std::int64_t>(repeated), 3), InvalidArgumentError);
}

TEST(ReductionPlan, ResultShapesKeepOrDropTheReducedAxes) {
    const Shape shape{2, 3, 4};
    const std::vector<bool> reduced{true, false, true};
    EXPECT_EQ(reduction_result_shape(shape, reduced, false), (Shape{3}));
    EXPECT_EQ(reduction_result_shape(shape, reduced, true), (Shape{1, 3, 1}));
    EXPECT_EQ(reduction_result_shape(Shape{}, {}, true), (Shape{}));
}

TEST(ReductionPlan, WholeArraysAreOneFullReductionOfMergedDimensions) {
    const ReductionLayout layout = plan_c({8, 16, 32}, {0, 1, 2});
    EXPECT_EQ(layout.kind, ReductionClass::full);
    EXPECT_EQ(layout.reduced, (Shape{4096}));
    EXPECT_EQ(layout.input_reduced[0], (Strides{4}));
    EXPECT_EQ(layout.kept_size, 1);
}

TEST(ReductionPlan, InnerAxesAreRowsAndOuterAxesAreColumns) {
    const ReductionLayout rows = plan_c({6, 7, 8}, {1, 2});
    EXPECT_EQ(rows.kind, ReductionClass::rows);
    EXPECT_EQ(rows.kept, (Shape{6}));
    EXPECT_EQ(rows.reduced, (Shape{56}));
    EXPECT_EQ(rows.output_kept, (Strides{4}));

    const ReductionLayout columns = plan_c({6, 7, 8}, {0, 1});
    EXPECT_EQ(columns.kind, ReductionClass::columns);
    EXPECT_EQ(columns.kept, (Shape{8}));
    EXPECT_EQ(columns.reduced, (Shape{42}));
    EXPECT_EQ(columns.input_reduced[0], (Strides{32}));
    EXPECT_EQ(columns.reduced_size, 42);
}

TEST(ReductionPlan, AMiddleAxisAndTransposesAreStridedOrTheirMirror) {
    const ReductionLayout middle = plan_c({6, 7, 8}, {1});
    EXPECT_EQ(middle.kind, ReductionClass::strided);
    EXPECT_EQ(middle.kept, (Shape{6, 8}));
    EXPECT_EQ(middle.output_kept, (Strides{32, 4}));
    // The transpose of a C array reduced over its last axis: its columns are the memory's rows.
    const Shape shape{5, 9};
    const std::vector<bool> reduced{false, true};
    const ReductionLayout transposed = plan_reduction(shape, Strides{4, 20}, 4, reduced, Strides{4});
    EXPECT_EQ(transposed.kind, ReductionClass::columns);
    EXPECT_EQ(transposed.input_reduced[0], (Strides{20}));
}

TEST(ReductionPlan, EmptyAndBroadcastInputs) {
    const ReductionLayout empty = plan_c({0, 4}, {0});
    EXPECT_EQ(empty.reduced_size, 0);
    EXPECT_EQ(empty.kept_size, 4);
    EXPECT_TRUE(empty.reduced.empty());
    const ReductionLayout nothing = plan_c({3, 0}, {0});
    EXPECT_EQ(nothing.kept_size, 0);
    // A row broadcast down the reduced axis: every step reads the same element.
    const ReductionLayout broadcast =
        plan_reduction(Shape{4, 6}, Strides{0, 4}, 4, std::vector<bool>{true, false}, Strides{4});
    EXPECT_EQ(broadcast.kind, ReductionClass::columns);
    EXPECT_EQ(broadcast.input_reduced[0], (Strides{0}));
}

}  // namespace
}  // namespace gpukit::detail
