// tests/device/ufuncs_test.cpp: every ufunc of src/ops/ufuncs.def on every backend against NumPy 2.
//
// data/ufunc_cases.inc (written by data/make_ufunc_cases.py) holds NumPy's loops of each ufunc and,
// for every loop, 67 inputs chosen for the function (its domain; nan, infinities, signed zeros,
// subnormals, the integer types' edges; complex numbers on the branch cuts) with NumPy's results.
// Each loop runs on a contiguous array of its own dtypes (67 elements: both the 16-byte-vector path
// and the element-by-element tail). Integers and bool must match exactly; floats within the bound
// each function states below, in units in the last place of the loop's type (complex results:
// relative to their magnitude, in the part type's epsilon). Then each ufunc runs once more over
// broadcast, transposed, strided and 0-d operands, against its contiguous result, and the edge
// cases NumPy cannot check for us (what a kernel gives where NumPy raises) are tested by hand.
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>

#include "array/convert.hpp"
#include "device_test_fixture.hpp"
#include "gpukit/elementwise.hpp"
#include "ops/ufunc.hpp"

namespace gpukit::testing {
namespace {

using detail::Ufunc;
using detail::UfuncId;

// ---- NumPy's cases

struct UfuncCase {
    std::string_view name, loop;
    std::string_view inputs[3], outputs[2];
};
struct LoopList {
    std::string_view name, loops;
};

const std::vector<UfuncCase>& numpy_cases() {
    static const std::vector<UfuncCase> cases = [] {
        std::vector<UfuncCase> all;
        const auto ufunc_loops = [](std::string_view, std::string_view) {};
        const auto ufunc_case = [&all](std::string_view name, std::string_view loop, std::string_view in0,
                                       std::string_view in1, std::string_view in2, std::string_view out0,
                                       std::string_view out1) {
            all.push_back({name, loop, {in0, in1, in2}, {out0, out1}});
        };
#include "data/ufunc_cases.inc"
        return all;
    }();
    return cases;
}

const std::vector<LoopList>& numpy_loop_lists() {
    static const std::vector<LoopList> lists = [] {
        std::vector<LoopList> all;
        const auto ufunc_loops = [&all](std::string_view name, std::string_view loops) {
            all.push_back({name, loops});
        };
        const auto ufunc_case = [](std::string_view, std::string_view, std::string_view, std::string_view,
                                   std::string_view, std::string_view, std::string_view) {};
#include "data/ufunc_cases.inc"
        return all;
    }();
    return lists;
}

using detail::dtype_of_letter;

// The hexadecimal bits of the file as elements in memory (little-endian; complex: real, imaginary).
std::vector<std::byte> bytes_of(std::string_view hex, DType dtype) {
    const bool complex = kind(dtype) == DTypeKind::complex;
    const std::size_t part = itemsize(dtype) / (complex ? 2 : 1);
    std::vector<std::byte> bytes;
    for (std::size_t at = 0; at + 2 * part <= hex.size(); at += 2 * part) {
        const std::uint64_t bits = std::stoull(std::string(hex.substr(at, 2 * part)), nullptr, 16);
        for (std::size_t b = 0; b < part; ++b) bytes.push_back(static_cast<std::byte>((bits >> (8 * b)) & 0xff));
    }
    return bytes;
}

Array array_of(std::string_view hex, DType dtype) {
    const std::vector<std::byte> bytes = bytes_of(hex, dtype);
    const auto count = static_cast<std::int64_t>(bytes.size() / itemsize(dtype));
    return Array::from_host(ConstHostView(bytes.data(), dtype, {count}));
}

std::vector<std::byte> bytes_of(const Array& array) {
    std::vector<std::byte> bytes(static_cast<std::size_t>(array.nbytes()));
    array.copy_to_host(HostView(bytes.data(), array.dtype(), array.shape()));
    return bytes;
}

// ---- comparing floats

// Bounds: ulps of the loop's type for float16/bfloat16, float32 and float64 results, and for
// complex loops a bound on |got - expected| / |expected| in epsilons of the part type.
struct Tolerance {
    double half = 0, single = 0, double_ = 0, complex = 0;
    bool zero_sign = true;  // with no tolerance, -0.0 and 0.0 differ
};

const std::map<std::string_view, Tolerance>& tolerances() {
    // Each bound is CUDA's documented maximum error for the function (CUDA C Programming Guide,
    // "Mathematical Functions") plus NumPy's own (its float32 SIMD functions are within about 2
    // ulps, float64 within 1; the simulator's C library within 1). Complex functions are written
    // here (kernels/gpukit_elementwise.cuh) and compared norm-wise. The rest are exact: integers,
    // comparisons, rounding, division and remainders, signs, nextafter, ldexp, frexp and the like.
    // logaddexp's ulps are of the larger of its result and its log1p term (error_magnitude).
    static const std::map<std::string_view, Tolerance> table = {
        // name            float16/bfloat16, float32, float64 ulps; complex epsilons
        {"multiply", {0, 0, 0, 4}},    {"true_divide", {0, 0, 0, 4}},  {"square", {0, 0, 0, 4}},
        {"reciprocal", {0, 0, 0, 4}},  {"absolute", {0, 0, 0, 2}},     {"sign", {0, 0, 0, 4}},
        {"power", {1, 6, 3, 64}},      {"float_power", {0, 0, 3, 64}}, {"exp", {1, 4, 2, 8}},
        {"exp2", {1, 4, 2, 8}},        {"expm1", {1, 4, 2, 8}},        {"log", {1, 4, 2, 8}},
        {"log2", {1, 4, 2, 8}},        {"log10", {1, 4, 2, 8}},        {"log1p", {1, 4, 2, 512}},
        {"sqrt", {0, 0, 0, 4}},        {"cbrt", {1, 4, 4, 0}},         {"sin", {1, 4, 3, 8}},
        {"cos", {1, 4, 3, 8}},         {"tan", {1, 6, 3, 8}},          {"arcsin", {1, 4, 3, 16}},
        {"arccos", {1, 4, 3, 16}},     {"arctan", {1, 4, 3, 16}},      {"arctan2", {1, 5, 3, 0}},
        {"hypot", {1, 5, 3, 0}},       {"sinh", {1, 5, 3, 16}},        {"cosh", {1, 4, 2, 16}},
        {"tanh", {1, 4, 2, 16}},       {"arcsinh", {1, 5, 4, 16}},     {"arccosh", {1, 6, 4, 16}},
        {"arctanh", {1, 5, 3, 16}},    {"angle", {1, 5, 3, 4}},        {"angle(deg)", {1, 5, 3, 4}},
        {"fmax", {0, 0, 0, 0, false}}, {"fmin", {0, 0, 0, 0, false}},  {"logaddexp", {1, 4, 2, 0}},
        {"logaddexp2", {1, 4, 2, 0}},
    };
    return table;
}

Tolerance tolerance_of(std::string_view name) {
    const auto found = tolerances().find(name);
    return found == tolerances().end() ? Tolerance{} : found->second;
}

// One floating element as a double (float16 and bfloat16 exactly).
double float_at(const std::byte* p, DType dtype) {
    switch (dtype) {
        case DType::float16: {
            std::uint16_t bits;
            std::memcpy(&bits, p, 2);
            return detail::float16_value(bits);
        }
        case DType::bfloat16: {
            std::uint16_t bits;
            std::memcpy(&bits, p, 2);
            return detail::bfloat16_value(bits);
        }
        case DType::float32: {
            float f;
            std::memcpy(&f, p, 4);
            return f;
        }
        default: {
            double d;
            std::memcpy(&d, p, 8);
            return d;
        }
    }
}

// The spacing of floats of `dtype` at x (the distance to the next one away from zero).
double ulp_at(double x, DType dtype) {
    const int digits = dtype == DType::float16 ? 11 : dtype == DType::bfloat16 ? 8 : dtype == DType::float32 ? 24 : 53;
    const int min_exponent = dtype == DType::float16 ? -14 : dtype == DType::float64 ? -1022 : -126;
    const int exponent = x == 0 ? min_exponent : std::max(std::ilogb(x), min_exponent);
    return std::ldexp(1.0, exponent - digits + 1);
}

bool same_float(double got, double expected, DType dtype, double ulps, bool zero_sign, double magnitude = 0) {
    if (std::isnan(expected)) return std::isnan(got);
    if (std::isinf(expected) || ulps == 0) {
        if (got != expected) return false;
        return !zero_sign || got != 0 || std::signbit(got) == std::signbit(expected);
    }
    return std::fabs(got - expected) <= ulps * ulp_at(std::max(std::fabs(expected), magnitude), dtype);
}

double ulps_for(const Tolerance& tolerance, DType dtype) {
    switch (dtype) {
        case DType::float16:
        case DType::bfloat16: return tolerance.half;
        case DType::float32: return tolerance.single;
        default: return tolerance.double_;
    }
}

// Complex results: nan and infinite parts where NumPy has them, else close in magnitude. C99
// (Annex G) leaves the sign of an infinite part, and whether a part is nan or infinite, to the
// library where an argument has a nan part or two infinite ones (`unspecified`): there any
// non-finite part matches a non-finite part.
bool same_complex(double re, double im, double expected_re, double expected_im, DType part, double bound,
                  bool zero_sign, bool unspecified = false) {
    const bool special = !std::isfinite(expected_re) || !std::isfinite(expected_im);
    if (special && unspecified) {
        const auto same_part = [&](double got, double expected) {
            return std::isfinite(expected) ? same_float(got, expected, part, 0, false) : !std::isfinite(got);
        };
        return same_part(re, expected_re) && same_part(im, expected_im);
    }
    if (special || bound == 0)
        return same_float(re, expected_re, part, 0, zero_sign && !special) &&
               same_float(im, expected_im, part, 0, zero_sign && !special);
    const double epsilon = part == DType::float32 ? 0x1p-23 : 0x1p-52;
    const double magnitude = std::hypot(expected_re, expected_im);
    const double error = std::hypot(re - expected_re, im - expected_im);
    // Below the smallest normal the bound is absolute.
    return error <= bound * epsilon * std::max(magnitude, part == DType::float32 ? 0x1p-126 : 0x1p-1022);
}

// One element, readable: the value and its bits.
std::string describe(const std::byte* p, DType dtype) {
    std::ostringstream text;
    text.precision(17);
    switch (kind(dtype)) {
        case DTypeKind::complex: {
            const DType part = dtype == DType::complex64 ? DType::float32 : DType::float64;
            return describe(p, part) + (" + i " + describe(p + itemsize(part), part));
        }
        case DTypeKind::floating: text << float_at(p, dtype); break;
        default: {
            std::uint64_t bits = 0;
            std::memcpy(&bits, p, itemsize(dtype));
            text << "int";
        }
    }
    text << " (0x";
    for (std::size_t b = itemsize(dtype); b-- > 0;)
        text << std::hex << (static_cast<unsigned>(p[b]) >> 4) << (static_cast<unsigned>(p[b]) & 15);
    text << ")";
    return text.str();
}

// Whether element i of a complex argument has a nan part or two infinite parts.
bool unspecified_in_c99(const std::vector<std::vector<std::byte>>& inputs, const std::vector<DType>& dtypes,
                        std::size_t i) {
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        if (kind(dtypes[k]) != DTypeKind::complex) continue;
        const DType part = dtypes[k] == DType::complex64 ? DType::float32 : DType::float64;
        const std::byte* p = inputs[k].data() + i * itemsize(dtypes[k]);
        const double re = float_at(p, part), im = float_at(p + itemsize(part), part);
        if (std::isnan(re) || std::isnan(im) || (std::isinf(re) && std::isinf(im))) return true;
    }
    return false;
}

// The magnitude whose ulps bound a result's error where it is not the result's own (0 elsewhere):
// logaddexp(x, y) is max(x, y) plus a log1p term rounded on its own, and the sum may cancel (the
// result near 0, the term near ln 2), so its error is in units of the larger of the two.
double error_magnitude(std::string_view name, double expected, const std::vector<std::vector<std::byte>>& inputs,
                       const std::vector<DType>& input_dtypes, std::size_t i) {
    if (name != "logaddexp" && name != "logaddexp2") return 0;
    const double x = float_at(inputs[0].data() + i * itemsize(input_dtypes[0]), input_dtypes[0]);
    const double y = float_at(inputs[1].data() + i * itemsize(input_dtypes[1]), input_dtypes[1]);
    return std::fabs(expected - std::max(x, y));
}

// Compares an output with the expected one, element by element, within the function's bound;
// `loop_kind` is the kind of the loop's first input (a complex loop's real output takes the
// complex bound).
void expect_matches(const UfuncCase& c, const std::vector<std::byte>& got, DType dtype,
                    const std::vector<std::byte>& expected, DTypeKind loop_kind,
                    const std::vector<std::vector<std::byte>>& inputs, const std::vector<DType>& input_dtypes) {
    ASSERT_EQ(got.size(), expected.size()) << c.name << " " << c.loop;
    const Tolerance tolerance = tolerance_of(c.name);
    const std::size_t size = itemsize(dtype);
    const std::size_t count = got.size() / size;
    int failures = 0;
    for (std::size_t i = 0; i < count && failures < 5; ++i) {
        const std::byte* g = got.data() + i * size;
        const std::byte* e = expected.data() + i * size;
        bool ok;
        if (kind(dtype) == DTypeKind::complex) {
            const DType part = dtype == DType::complex64 ? DType::float32 : DType::float64;
            ok = same_complex(float_at(g, part), float_at(g + size / 2, part), float_at(e, part),
                              float_at(e + size / 2, part), part, tolerance.complex, tolerance.zero_sign,
                              unspecified_in_c99(inputs, input_dtypes, i));
        } else if (kind(dtype) == DTypeKind::floating && loop_kind == DTypeKind::complex) {
            const double x = float_at(g, dtype), y = float_at(e, dtype);
            ok = same_complex(x, 0, y, 0, dtype, tolerance.complex, tolerance.zero_sign);
        } else if (kind(dtype) == DTypeKind::floating) {
            ok = same_float(float_at(g, dtype), float_at(e, dtype), dtype, ulps_for(tolerance, dtype),
                            tolerance.zero_sign, error_magnitude(c.name, float_at(e, dtype), inputs, input_dtypes, i));
        } else {
            ok = std::memcmp(g, e, size) == 0;
        }
        if (!ok) {
            ++failures;
            std::string what;
            for (std::size_t k = 0; k < inputs.size(); ++k) {
                const std::size_t input_size = itemsize(input_dtypes[k]);
                what += (k ? ", " : "") + describe(inputs[k].data() + i * input_size, input_dtypes[k]);
            }
            ADD_FAILURE() << c.name << " " << c.loop << " element " << i << " of inputs (" << what << "): got "
                          << describe(g, dtype) << ", NumPy " << describe(e, dtype);
        }
    }
}

// ---- running a case by its name: a table row, or a function with its arguments

const Ufunc* table_row(std::string_view name) {
    for (const Ufunc& ufunc : detail::ufunc_table())
        if (ufunc.name == name) return &ufunc;
    return nullptr;
}

using detail::type_letter;

std::string loop_text(std::span<const DType> dtypes, std::size_t nin) {
    std::string text;
    for (std::size_t k = 0; k < dtypes.size(); ++k) {
        if (k == nin) text += "->";
        text += type_letter(dtypes[k]);
    }
    return text;
}

// The loop a call on arrays of these dtypes runs ("ii->i"), or "" when none takes them.
std::string selected_loop(std::string_view name, std::span<const DType> inputs) {
    if (const Ufunc* ufunc = table_row(name)) {
        const detail::UfuncLoop* loop = detail::select_loop(*ufunc, inputs);
        return loop ? loop_text(std::span(loop->dtypes).first(ufunc->nin + ufunc->nout), ufunc->nin) : "";
    }
    return "";
}

std::vector<Array> run_named(std::string_view name, const std::vector<Array>& inputs) {
    std::vector<const Array*> pointers;
    for (const Array& input : inputs) pointers.push_back(&input);
    if (const Ufunc* ufunc = table_row(name)) return detail::run_ufunc(*ufunc, pointers);
    if (name == "where") return {where(inputs[0], inputs[1], inputs[2])};
    if (name == "nan_to_num") return {nan_to_num(inputs[0])};
    if (name == "angle") return {angle(inputs[0])};
    if (name == "angle(deg)") return {angle(inputs[0], true)};
    if (name.starts_with("around(")) return {around(inputs[0], std::stoi(std::string(name.substr(7))))};
    ADD_FAILURE() << "no ufunc or function named " << name;
    return {};
}

std::vector<std::string> case_names() {
    std::vector<std::string> names;
    for (const UfuncCase& c : numpy_cases())
        if (names.empty() || names.back() != c.name) names.emplace_back(c.name);
    return names;
}

class UfuncMatchesNumPy : public DeviceTest, public ::testing::WithParamInterface<std::string> {};

// Every loop of the ufunc (or function) on NumPy's inputs, contiguous, against NumPy's outputs.
TEST_P(UfuncMatchesNumPy, EveryLoop) {
    int loops = 0;
    for (const UfuncCase& c : numpy_cases()) {
        if (c.name != GetParam()) continue;
        ++loops;
        const std::size_t arrow = c.loop.find("->");
        std::vector<Array> inputs;
        std::vector<DType> input_dtypes;
        std::vector<std::vector<std::byte>> input_bytes;
        for (std::size_t k = 0; k < arrow; ++k) {
            input_dtypes.push_back(dtype_of_letter(c.loop[k]));
            inputs.push_back(array_of(c.inputs[k], input_dtypes.back()));
            input_bytes.push_back(bytes_of(c.inputs[k], input_dtypes.back()));
        }
        if (table_row(c.name))
            EXPECT_EQ(selected_loop(c.name, input_dtypes), c.loop) << c.name << ": the loop for these dtypes";
        const std::vector<Array> outputs = run_named(c.name, inputs);
        ASSERT_EQ(outputs.size(), c.loop.size() - arrow - 2) << c.name << " " << c.loop;
        for (std::size_t k = 0; k < outputs.size(); ++k) {
            const DType dtype = dtype_of_letter(c.loop[arrow + 2 + k]);
            ASSERT_EQ(outputs[k].dtype(), dtype) << c.name << " " << c.loop << " output " << k;
            expect_matches(c, bytes_of(outputs[k]), dtype, bytes_of(c.outputs[k], dtype), kind(input_dtypes[0]),
                           input_bytes, input_dtypes);
        }
    }
    EXPECT_GT(loops, 0);
}

INSTANTIATE_TEST_SUITE_P(Ufuncs, UfuncMatchesNumPy, ::testing::ValuesIn(case_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name;
                             for (char ch : info.param)
                                 if (std::isalnum(static_cast<unsigned char>(ch)))
                                     name += ch;
                                 else if (ch == '-')
                                     name += "minus";
                                 else if (ch != ')')
                                     name += '_';
                             return name;
                         });

class Ufuncs : public DeviceTest {};

// The table's loops are NumPy's, in NumPy's order (bfloat16's after float16's); every row has data.
TEST_F(Ufuncs, LoopsAreNumPys) {
    std::vector<std::string_view> checked;
    for (const LoopList& list : numpy_loop_lists()) {
        std::string ours;
        if (const Ufunc* ufunc = table_row(list.name)) {
            for (const detail::UfuncLoop& loop : ufunc->loops)
                ours += (ours.empty() ? "" : " ") +
                        loop_text(std::span(loop.dtypes).first(ufunc->nin + ufunc->nout), ufunc->nin);
        } else {
            ADD_FAILURE() << list.name << " is NumPy's but not a row";
            continue;
        }
        std::string numpys(list.loops);
        // NumPy's true_divide takes integers through a type resolver that gives float64.
        if (list.name == "true_divide") numpys = "bb->d BB->d hh->d HH->d ii->d II->d qq->d QQ->d " + numpys;
        EXPECT_EQ(ours, numpys) << list.name;
        checked.push_back(list.name);
    }
    for (const Ufunc& ufunc : detail::ufunc_table())
        EXPECT_NE(std::find(checked.begin(), checked.end(), ufunc.name), checked.end()) << ufunc.name << " has no data";
}

// ---- layouts: each ufunc and function once more over broadcast, transposed, 0-d and empty
// operands (one dtype each: float32 where it has such a loop), against its contiguous result

const UfuncCase& layout_case(std::string_view name) {
    const UfuncCase* chosen = nullptr;
    for (const UfuncCase& c : numpy_cases()) {
        if (c.name != name) continue;
        if (!chosen) chosen = &c;
        const std::string_view inputs = c.loop.substr(0, c.loop.find("->"));
        if (inputs.find_first_not_of('f') == std::string_view::npos) return c;
    }
    return *chosen;
}

// The first `rows` x `columns` elements of a case's input, as host bytes in row-major order.
std::vector<std::byte> matrix_bytes(std::string_view hex, DType dtype, std::size_t elements) {
    std::vector<std::byte> bytes = bytes_of(hex, dtype);
    bytes.resize(elements * itemsize(dtype));
    return bytes;
}

std::vector<std::byte> transposed(const std::vector<std::byte>& bytes, std::size_t rows, std::size_t columns,
                                  std::size_t size) {
    std::vector<std::byte> out(bytes.size());
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < columns; ++c)
            std::memcpy(&out[(c * rows + r) * size], &bytes[(r * columns + c) * size], size);
    return out;
}

class UfuncLayouts : public DeviceTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(UfuncLayouts, BroadcastTransposedZeroDimensionalAndEmpty) {
    const UfuncCase& c = layout_case(GetParam());
    const std::size_t arrow = c.loop.find("->");
    constexpr std::int64_t rows = 6, columns = 7;
    std::vector<DType> dtypes;
    std::vector<std::vector<std::byte>> host;
    std::vector<Array> contiguous, transposed_views, broadcast, zero_d, empty;
    for (std::size_t k = 0; k < arrow; ++k) {
        const DType dtype = dtype_of_letter(c.loop[k]);
        const std::size_t size = itemsize(dtype);
        dtypes.push_back(dtype);
        host.push_back(matrix_bytes(c.inputs[k], dtype, rows * columns));
        contiguous.push_back(Array::from_host(ConstHostView(host[k].data(), dtype, {rows, columns})));
        const std::vector<std::byte> t = transposed(host[k], rows, columns, size);
        transposed_views.push_back(Array::from_host(ConstHostView(t.data(), dtype, {columns, rows})).transpose());
        // Inputs after the first: one row, broadcast down the rows (strides 0).
        broadcast.push_back(k == 0 ? contiguous[k] : Array::from_host(ConstHostView(host[k].data(), dtype, {columns})));
        zero_d.push_back(Array::from_host(ConstHostView(host[k].data(), dtype, {})));
        empty.push_back(Array::empty({0, columns}, dtype));
    }
    const std::vector<Array> expected = run_named(c.name, contiguous);
    const std::vector<Array> got_transposed = run_named(c.name, transposed_views);
    const std::vector<Array> got_zero_d = run_named(c.name, zero_d);
    const std::vector<Array> got_empty = run_named(c.name, empty);
    // The broadcast result against the contiguous run on the rows repeated.
    std::vector<Array> repeated;
    for (std::size_t k = 0; k < arrow; ++k) {
        std::vector<std::byte> rows_bytes = host[k];
        if (k > 0)
            for (std::int64_t r = 1; r < rows; ++r)
                std::memcpy(&rows_bytes[r * columns * itemsize(dtypes[k])], host[k].data(),
                            columns * itemsize(dtypes[k]));
        repeated.push_back(Array::from_host(ConstHostView(rows_bytes.data(), dtypes[k], {rows, columns})));
    }
    const std::vector<Array> expected_broadcast = run_named(c.name, repeated);
    const std::vector<Array> got_broadcast = run_named(c.name, broadcast);
    std::vector<std::vector<std::byte>> first_elements;
    for (std::size_t k = 0; k < arrow; ++k)
        first_elements.emplace_back(host[k].begin(),
                                    host[k].begin() + static_cast<std::ptrdiff_t>(itemsize(dtypes[k])));
    for (std::size_t k = 0; k < expected.size(); ++k) {
        const DType dtype = expected[k].dtype();
        const std::vector<std::byte> all = bytes_of(expected[k]);
        SCOPED_TRACE(std::string(c.name) + " " + std::string(c.loop) + " output " + std::to_string(k));
        ASSERT_EQ(got_transposed[k].shape(), (Shape{rows, columns}));
        expect_matches(c, bytes_of(got_transposed[k]), dtype, all, kind(dtypes[0]), host, dtypes);
        ASSERT_EQ(got_broadcast[k].shape(), (Shape{rows, columns}));
        expect_matches(c, bytes_of(got_broadcast[k]), dtype, bytes_of(expected_broadcast[k]), kind(dtypes[0]), host,
                       dtypes);
        ASSERT_EQ(got_zero_d[k].shape(), Shape{});
        expect_matches(c, bytes_of(got_zero_d[k]), dtype,
                       std::vector<std::byte>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(itemsize(dtype))),
                       kind(dtypes[0]), first_elements, dtypes);
        EXPECT_EQ(got_empty[k].shape(), (Shape{0, columns}));
    }
}

INSTANTIATE_TEST_SUITE_P(Ufuncs, UfuncLayouts, ::testing::ValuesIn(case_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name;
                             for (char ch : info.param)
                                 if (std::isalnum(static_cast<unsigned char>(ch)))
                                     name += ch;
                                 else if (ch == '-')
                                     name += "minus";
                                 else if (ch != ')')
                                     name += '_';
                             return name;
                         });

// ---- what NumPy cannot check for us

template <class T>
std::vector<T> run_binary(Array (*f)(const Array&, const Array&), std::vector<T> a, std::vector<T> b) {
    const auto n = static_cast<std::int64_t>(a.size());
    const Array x = Array::from_host(std::span<const T>(a), {n});
    const Array y = Array::from_host(std::span<const T>(b), {n});
    return f(x, y).template to_vector<T>();
}
template <class T>
Array array_of(std::vector<T> values) {
    const auto n = static_cast<std::int64_t>(values.size());
    return Array::from_host(std::span<const T>(values), {n});
}

TEST_F(Ufuncs, IntegersWrapAsNumPy) {
    using I32 = std::numeric_limits<std::int32_t>;
    using I64 = std::numeric_limits<std::int64_t>;
    EXPECT_EQ(run_binary<std::int32_t>(add, {I32::max(), I32::min()}, {1, -1}),
              (std::vector<std::int32_t>{I32::min(), I32::max()}));
    EXPECT_EQ(run_binary<std::int32_t>(subtract, {I32::min()}, {1}), (std::vector<std::int32_t>{I32::max()}));
    EXPECT_EQ(run_binary<std::int32_t>(multiply, {I32::min(), 65536}, {-1, 65536}),
              (std::vector<std::int32_t>{I32::min(), 0}));
    EXPECT_EQ(run_binary<std::int64_t>(add, {I64::max()}, {1}), (std::vector<std::int64_t>{I64::min()}));
    EXPECT_EQ(run_binary<std::int64_t>(multiply, {I64::min()}, {-1}), (std::vector<std::int64_t>{I64::min()}));
    EXPECT_EQ(run_binary<std::uint16_t>(multiply, {65535}, {65535}), (std::vector<std::uint16_t>{1}));
    EXPECT_EQ(run_binary<std::int32_t>(floor_divide, {I32::min()}, {-1}), (std::vector<std::int32_t>{I32::min()}));
    EXPECT_EQ(run_binary<std::int32_t>(fmod, {I32::min(), 7, -7}, {-1, 0, 2}), (std::vector<std::int32_t>{0, 0, -1}));
    const std::vector<std::int32_t> x{I32::min()};
    EXPECT_EQ(negative(array_of(x)).to_vector<std::int32_t>(), x);
    EXPECT_EQ(absolute(array_of(x)).to_vector<std::int32_t>(), x);
    EXPECT_EQ(gcd(array_of(x), array_of<std::int32_t>({0})).to_vector<std::int32_t>(), x);
}

TEST_F(Ufuncs, DivisionSignsAndZeroAsNumPy) {
    EXPECT_EQ(run_binary<std::int32_t>(floor_divide, {-7, 7, -7, 7, 5, 0}, {2, -2, -2, 2, 0, 0}),
              (std::vector<std::int32_t>{-4, -4, 3, 3, 0, 0}));
    EXPECT_EQ(run_binary<std::int32_t>(remainder, {-7, 7, -7, 7, 5, std::numeric_limits<std::int32_t>::min()},
                                       {2, -2, -2, 2, 0, -1}),
              (std::vector<std::int32_t>{1, -1, -1, 1, 0, 0}));
    EXPECT_EQ(run_binary<std::uint8_t>(floor_divide, {7, 7}, {2, 0}), (std::vector<std::uint8_t>{3, 0}));
    EXPECT_EQ(run_binary<std::uint8_t>(remainder, {7, 7}, {2, 0}), (std::vector<std::uint8_t>{1, 0}));
    EXPECT_EQ(run_binary<double>(floor_divide, {-7.5, 7.5, 1.0}, {2.0, -2.0, 0.0}),
              (std::vector<double>{-4.0, -4.0, std::numeric_limits<double>::infinity()}));
    const auto [quotient, rest] = divmod(array_of<std::int8_t>({-7, 7, 5}), array_of<std::int8_t>({2, -2, 0}));
    EXPECT_EQ(quotient.to_vector<std::int8_t>(), (std::vector<std::int8_t>{-4, -4, 0}));
    EXPECT_EQ(rest.to_vector<std::int8_t>(), (std::vector<std::int8_t>{1, -1, 0}));
}

// NumPy raises ValueError for an integer to a negative power, from inside its loop; a kernel
// cannot, and gives what CuPy gives.
TEST_F(Ufuncs, IntegerToNegativePowerGivesCuPysValues) {
    EXPECT_EQ(run_binary<std::int32_t>(power, {2, 1, -1, -1, 0, 7}, {-1, -5, -3, -2, -1, 0}),
              (std::vector<std::int32_t>{0, 1, -1, 1, 0, 1}));
    EXPECT_EQ(run_binary<std::int8_t>(power, {3, 2}, {5, 7}), (std::vector<std::int8_t>{-13, -128}));  // wraps
    // NumPy leaves integer 1 / 0 to the platform (INT_MIN on x86); gpukit gives 0, as CuPy.
    EXPECT_EQ(reciprocal(array_of<std::int32_t>({0, 1, -1, 2})).to_vector<std::int32_t>(),
              (std::vector<std::int32_t>{0, 1, -1, 0}));
}

TEST_F(Ufuncs, Int64AgainstUint64ComparesExactly) {
    const Array minus_one = array_of<std::int64_t>({-1, -1, std::numeric_limits<std::int64_t>::max()});
    const Array big = array_of<std::uint64_t>({1ull << 63, ~0ull, 1ull << 63});
    EXPECT_EQ(less(minus_one, big).astype(DType::uint8).to_vector<std::uint8_t>(),
              (std::vector<std::uint8_t>{1, 1, 1}));
    EXPECT_EQ(equal(minus_one, big).astype(DType::uint8).to_vector<std::uint8_t>(),
              (std::vector<std::uint8_t>{0, 0, 0}));
    EXPECT_EQ(greater_equal(big, minus_one).astype(DType::uint8).to_vector<std::uint8_t>(),
              (std::vector<std::uint8_t>{1, 1, 1}));
    // Through float64 (before NumPy 2) -1 and 2^64 - 1 would be ordered right, but 2^63 - 1 and
    // 2^63 would be equal.
    EXPECT_EQ(
        less(array_of<std::int64_t>({std::numeric_limits<std::int64_t>::max()}), array_of<std::uint64_t>({1ull << 63}))
            .astype(DType::uint8)
            .to_vector<std::uint8_t>(),
        (std::vector<std::uint8_t>{1}));
}

TEST_F(Ufuncs, LoopSelectionFollowsNumPy) {
    const auto out = [](UfuncId id, std::vector<DType> inputs) {
        const detail::UfuncLoop* loop = detail::select_loop(detail::ufunc(id), inputs);
        return loop ? loop->dtypes[inputs.size()] : DType::bool_;
    };
    EXPECT_EQ(out(UfuncId::add, {DType::uint8, DType::uint8}), DType::uint8);
    EXPECT_EQ(out(UfuncId::add, {DType::int8, DType::uint8}), DType::int16);
    EXPECT_EQ(out(UfuncId::add, {DType::uint64, DType::int64}), DType::float64);
    EXPECT_EQ(out(UfuncId::add, {DType::float16, DType::bfloat16}), DType::float32);
    EXPECT_EQ(out(UfuncId::true_divide, {DType::int8, DType::int8}), DType::float64);
    EXPECT_EQ(out(UfuncId::true_divide, {DType::bool_, DType::bool_}), DType::float64);
    EXPECT_EQ(out(UfuncId::absolute, {DType::complex64}), DType::float32);
    EXPECT_EQ(out(UfuncId::sin, {DType::int8}), DType::float16);  // NumPy's smallest safe float
    EXPECT_EQ(out(UfuncId::sin, {DType::int32}), DType::float64);
    EXPECT_EQ(out(UfuncId::sqrt, {DType::bfloat16}), DType::bfloat16);
    EXPECT_EQ(out(UfuncId::floor, {DType::int16}), DType::int16);  // NumPy 2.4: integers stay integers
    EXPECT_EQ(out(UfuncId::ldexp, {DType::float32, DType::int64}), DType::float32);
    const std::vector<DType> int8_uint64{DType::int8, DType::uint64};
    const detail::UfuncLoop* mixed = detail::select_loop(detail::ufunc(UfuncId::less), int8_uint64);
    ASSERT_NE(mixed, nullptr);
    EXPECT_EQ(mixed->dtypes[0], DType::int64);  // the exact 'qQ' loop, not float64
    EXPECT_EQ(mixed->dtypes[1], DType::uint64);
    EXPECT_EQ(
        detail::select_loop(detail::ufunc(UfuncId::floor_divide), std::vector{DType::complex64, DType::complex64}),
        nullptr);
    EXPECT_EQ(detail::select_loop(detail::ufunc(UfuncId::left_shift), std::vector{DType::float32, DType::int32}),
              nullptr);
}

TEST_F(Ufuncs, OutputsIntoExistingArrays) {
    const Array x = array_of<float>({8.0f, -0.75f, 3.0f});
    Array mantissa = Array::empty({3}, DType::float64);
    Array exponent = Array::empty({3}, DType::int64);
    frexp(x, mantissa, exponent);  // float32 and int32 cast safely to these
    EXPECT_EQ(mantissa.to_vector<double>(), (std::vector<double>{0.5, -0.75, 0.75}));
    EXPECT_EQ(exponent.to_vector<std::int64_t>(), (std::vector<std::int64_t>{4, 0, 2}));
    Array int8s = Array::empty({3}, DType::int8);
    frexp(x, mantissa, int8s);  // same_kind narrows within a kind, as NumPy's
    EXPECT_EQ(int8s.to_vector<std::int8_t>(), (std::vector<std::int8_t>{4, 0, 2}));
    Array flags = Array::empty({3}, DType::bool_);
    expect_contains(GPUKIT_MESSAGE_OF(DTypeError, frexp(x, mantissa, flags)),
                    "Cannot cast ufunc 'frexp' output from dtype('int32') to dtype('bool') with casting rule "
                    "'same_kind'");
    const auto [fractional, integral] = modf(array_of<double>({-2.5, 3.25}));
    EXPECT_EQ(fractional.to_vector<double>(), (std::vector<double>{-0.5, 0.25}));
    EXPECT_EQ(integral.to_vector<double>(), (std::vector<double>{-2.0, 3.0}));
    Array clipped = Array::empty({3}, DType::float32);
    clip(x, array_of<float>({0.0f}), array_of<float>({5.0f}), clipped);
    EXPECT_EQ(clipped.to_vector<float>(), (std::vector<float>{5.0f, 0.0f, 3.0f}));
}

TEST_F(Ufuncs, FunctionsAsNumPy) {
    // where takes any condition by truth, and promotes x and y.
    const Array chosen = where(array_of<std::int8_t>({0, 3, -1}), array_of<std::int8_t>({1, 2, 3}),
                               array_of<float>({-1.0f, -2.0f, -3.0f}));
    EXPECT_EQ(chosen.dtype(), DType::float32);
    EXPECT_EQ(chosen.to_vector<float>(), (std::vector<float>{-1.0f, 2.0f, 3.0f}));
    // nan_to_num with values of one's own; integers are copied.
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(nan_to_num(array_of<double>({nan, inf, -inf, 2.0}), -1.0, 10.0, -10.0).to_vector<double>(),
              (std::vector<double>{-1.0, 10.0, -10.0, 2.0}));
    const Array halves = nan_to_num(array_of<float>({float(inf)}).astype(DType::float16), 0.0, 1e10);
    EXPECT_TRUE(std::isinf(halves.astype(DType::float32).to_vector<float>()[0]));  // 1e10 is inf in float16
    EXPECT_EQ(nan_to_num(array_of<std::int32_t>({7})).to_vector<std::int32_t>(), (std::vector<std::int32_t>{7}));
    // around of bool: rint's float16 for 0 decimals, NumPy's casting error otherwise.
    EXPECT_EQ(around(array_of<std::uint8_t>({1, 0}).astype(DType::bool_)).dtype(), DType::float16);
    expect_contains(GPUKIT_MESSAGE_OF(DTypeError, around(array_of<std::uint8_t>({1}).astype(DType::bool_), 1)),
                    "Cannot cast ufunc 'multiply' output from dtype('float64') to dtype('bool')");
    EXPECT_EQ(round(array_of<std::int32_t>({15, 25, -15, 1234}), -1).to_vector<std::int32_t>(),
              (std::vector<std::int32_t>{20, 20, -20, 1230}));  // ties to even, as NumPy
    EXPECT_EQ(around(array_of<std::int32_t>({15}), 2).to_vector<std::int32_t>(), (std::vector<std::int32_t>{15}));
}

TEST_F(Ufuncs, RealAndImaginaryPartsAreViews) {
    const std::vector<std::complex<float>> values{{1.0f, 2.0f}, {-3.0f, 4.0f}};
    const Array z = Array::from_host(std::span<const std::complex<float>>(values), {2});
    const Array re = real(z), im = imag(z);
    EXPECT_EQ(re.dtype(), DType::float32);
    EXPECT_EQ(re.to_vector<float>(), (std::vector<float>{1.0f, -3.0f}));
    EXPECT_EQ(im.to_vector<float>(), (std::vector<float>{2.0f, 4.0f}));
    Array writable = im;
    writable.fill(0.5f);  // writes z's imaginary parts
    const std::vector<std::complex<float>> after = z.to_vector<std::complex<float>>();
    EXPECT_EQ(after[1], std::complex<float>(-3.0f, 0.5f));
    const Array x = array_of<std::int16_t>({5, 6});
    EXPECT_EQ(real(x).address(), x.address());  // the array itself
    EXPECT_EQ(imag(x).to_vector<std::int16_t>(), (std::vector<std::int16_t>{0, 0}));
    EXPECT_EQ(imag(x).dtype(), DType::int16);
    EXPECT_EQ(conj(z).to_vector<std::complex<float>>()[1], std::complex<float>(-3.0f, -0.5f));
}
}  // namespace
}  // namespace gpukit::testing
