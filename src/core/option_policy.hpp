// src/core/option_policy.hpp: what gpukit refuses in a compile before any compiler sees it.
//
// The options and CompileOptions fields are checked by CompileOptions::parsed() and validate()
// (gpukit/module.hpp, implemented in option_policy.cpp); this is the part that needs the source.
#pragma once

#include <string_view>

#include "gpukit/module.hpp"

namespace gpukit::detail {

// Refuses trigraphs (two question marks and one of =/'()!<>-) in the source and the string headers
// where the options' standard (c++11, c++14) would replace them: the trigraph of '#' followed by
// "include" is an #include that gpukit's reader of the
// source cannot see, so the include rules could not be checked. Throws InvalidArgumentError.
void check_source_policy(std::string_view source, const CompileOptions& options);

}  // namespace gpukit::detail
