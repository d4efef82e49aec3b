// gpukit/elementwise_kernel.hpp: user-defined elementwise kernels, CuPy's ElementwiseKernel.
//
//   gpukit::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
//   gpukit::Array z = squared_diff({x, y})[0];              // z allocated: x and y broadcast
//   squared_diff({x, y, z});                                // into a given z
//
// Parameters are CuPy's: "float32 x, T y, raw T z, int32 n". Each is a dtype name or a type
// placeholder (one letter: T, U, ...; every array bound to one placeholder must have the same
// dtype, and the placeholder is a typedef the operation and the preamble may use), optionally
// after `raw`. Arrays bound to other parameters are broadcast together to the loop's shape, and the
// operation sees element i of each by the parameter's name (inputs as values, outputs as
// references into memory); `i` is the element's flat C-order index and `_ind.size()` the loop's
// length. A raw array is passed whole: x[j] is its j-th element in C order, whatever its shape
// (x.size(), x.shape()[d] as CuPy's CArray). Scalars (Scalar, or C++ numbers) are converted to
// their parameter's type and passed by value. float16 and bfloat16 compute as float.
//
// As CuPy: an array must have its parameter's dtype exactly (astype it first); outputs are all
// given or all allocated (in the loop's shape); `size` sets the loop's length where every array is
// raw. Kernels are compiled on first use per argument dtypes and layout class, kept for the
// object's life and in the compile cache (memory and disk).
#pragma once

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/scalar.hpp"

namespace gpukit {

namespace detail {
struct ElementwiseKernelState;
}

struct ElementwiseKernelOptions {
    std::string preamble;              // code before the kernel: device functions, types, macros
    std::vector<std::string> options;  // compile options in NVRTC's spellings, checked as RawModule's;
                                       // -arch=/--gpu-architecture= sets the target
    bool reduce_dims = true;           // merge the loop's dimensions where the arrays allow (speed only)
    std::string loop_prep;             // code each thread runs before its loop
    std::string after_loop;            // and after it
};

// One argument of a call: an array or a scalar. C++ numbers are typed scalars (2.0f is a float32);
// the type only matters for a placeholder that no array decides.
class ElementwiseArgument {
public:
    ElementwiseArgument(const Array& array) : value_(array) {}     // NOLINT(google-explicit-constructor)
    ElementwiseArgument(const Scalar& scalar) : value_(scalar) {}  // NOLINT(google-explicit-constructor)
    template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
    ElementwiseArgument(T value) : value_(Scalar::of(value)) {}  // NOLINT(google-explicit-constructor)
    template <class T>
    ElementwiseArgument(std::complex<T> value) : value_(Scalar::of(value)) {}  // NOLINT(google-explicit-constructor)

    const Array* array() const noexcept { return std::get_if<Array>(&value_); }
    const Scalar* scalar() const noexcept { return std::get_if<Scalar>(&value_); }

private:
    std::variant<Array, Scalar> value_;
};

struct ElementwiseCall {
    std::optional<std::int64_t> size;         // the loop's length, where every array argument is raw
    std::optional<std::uint32_t> block_size;  // threads per block (default 256)
};

// One parameter as read from the parameter lists.
struct ElementwiseParam {
    std::string name;
    std::optional<DType> dtype;  // a fixed dtype, or none for a placeholder
    char placeholder = 0;        // the placeholder's letter
    bool raw = false;
    bool output = false;
    bool is_const = true;  // inputs, unless `_non_const`
};

class ElementwiseKernel {
public:
    // Throws InvalidArgumentError for a parameter list that does not read ("float32 x, T y"), a name
    // that is not a C identifier, two parameters of one name, a parameter named i, or a compile
    // option gpukit refuses. The operation, the preamble, loop_prep and after_loop are CUDA C.
    ElementwiseKernel(std::string_view in_params, std::string_view out_params, std::string operation,
                      std::string name = "kernel", ElementwiseKernelOptions options = {});

    // Runs the kernel on the current stream of the arrays' device, without waiting, and returns the
    // outputs (given or new). `args` are the inputs, then optionally every output. Throws
    // InvalidArgumentError (argument count, shapes, size, devices), DTypeError (an array whose
    // dtype is not its parameter's, a placeholder no argument decides), ScalarOverflowError,
    // CompileError (the operation's).
    std::vector<Array> operator()(std::span<const ElementwiseArgument> args, const ElementwiseCall& call = {}) const;
    std::vector<Array> operator()(std::initializer_list<ElementwiseArgument> args,
                                  const ElementwiseCall& call = {}) const {
        return (*this)(std::span<const ElementwiseArgument>(args.begin(), args.size()), call);
    }

    // The CUDA C the call would compile (CuPy's cached_code), for reading and debugging.
    std::string source(std::span<const ElementwiseArgument> args, const ElementwiseCall& call = {}) const;
    std::string source(std::initializer_list<ElementwiseArgument> args, const ElementwiseCall& call = {}) const {
        return source(std::span<const ElementwiseArgument>(args.begin(), args.size()), call);
    }

    const std::string& name() const noexcept;
    const std::string& operation() const noexcept;
    const ElementwiseKernelOptions& options() const noexcept;
    std::span<const ElementwiseParam> params() const noexcept;  // inputs, then outputs
    std::size_t nin() const noexcept;
    std::size_t nout() const noexcept;

private:
    std::shared_ptr<detail::ElementwiseKernelState> state_;
};

}  // namespace gpukit
