// src/ops/histogram/bin_width.hpp: NumPy's estimators of a histogram's bin width (numpy.histogram's
// string bins: "auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt").
#pragma once

#include <string_view>

#include "gpukit/array.hpp"
#include "gpukit/histograms.hpp"

namespace gpukit::detail {

// InvalidArgumentError, in NumPy's words, for a name that is not one of the estimators.
void check_bin_width_estimator(std::string_view name);

// The width estimator `name` gives for the 1-D, non-empty, real `x` (the values inside `range`,
// the outer edges: "stone" counts histograms over it); 0 where it finds none (one bin then).
double bin_width(std::string_view name, const Array& x, const BinRange& range);

}  // namespace gpukit::detail
