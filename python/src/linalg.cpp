// python/src/linalg.cpp: dot, vdot, inner and linalg.norm (gpukit/linalg.hpp) with NumPy's
// arguments. Arguments in, the core's array out.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/shape_ops.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

using Product = Array (*)(const Array&, const Array&);

// ord=: None, a number (inf included) or 'fro' / 'nuc'.
std::optional<linalg::NormOrder> to_order(nb::handle ord) {
    if (ord.is_none()) return std::nullopt;
    if (PyUnicode_Check(ord.ptr())) return linalg::NormOrder(to_str(ord, "ord"));
    if (PyBool_Check(ord.ptr()) || !PyNumber_Check(ord.ptr()))
        raise_type_error("ord must be None, a number or 'fro' / 'nuc', not " + describe_value(ord));
    return linalg::NormOrder(nb::cast<double>(ord));
}

}  // namespace

void bind_linalg(nb::module_& m) {
    const struct {
        const char* name;
        Product product;
        const char* doc;
    } products[] = {
        {"dot", static_cast<Product>(&dot),
         "The dot product, as numpy.dot: the sum over a's last axis and b's second-to-last."},
        {"vdot", &vdot, "The dot product of the flattened arrays, the first conjugated, as numpy.vdot."},
        {"inner", &inner, "The sum over both arrays' last axes, as numpy.inner."},
    };
    for (const auto& row : products) {
        const Product product = row.product;
        m.def(
            row.name,
            [product](nb::handle a, nb::handle b) {
                const Array& x = to_array(a, "a");
                const Array& y = to_array(b, "b");
                GilRelease unlocked;
                return product(x, y);
            },
            "a"_a.none(), "b"_a.none(), row.doc);
    }
    m.def(
        "matmul",
        [](nb::handle a, nb::handle b, nb::handle out, nb::handle casting, nb::handle dtype) {
            const Array& x = to_array(a, "x1");
            const Array& y = to_array(b, "x2");
            MatmulOptions options;
            if (!out.is_none()) options.out = to_array(out, "out");
            options.casting = to_casting(casting);
            options.dtype = to_optional_dtype(dtype);
            GilRelease unlocked;
            return matmul(x, y, options);
        },
        "x1"_a.none(), "x2"_a.none(), "out"_a.none() = nb::none(), nb::kw_only(), "casting"_a = "same_kind",
        "dtype"_a.none() = nb::none(),
        "The matrix product of the last two axes, the others a broadcast batch, as numpy.matmul (the @ operator).");
    m.def(
        "set_matmul_precision", [](const std::string& precision) { set_matmul_precision(precision); }, "precision"_a,
        "How float32 and complex64 matrix products may trade precision for speed, as "
        "torch.set_float32_matmul_precision: 'highest' (float32 throughout, the default) or 'high' / 'tf32' (TF32 "
        "tensor cores). Process-wide.");
    m.def("get_matmul_precision", &matmul_precision, "The matmul precision set_matmul_precision chose.");
    m.def(
        "set_matmul_library", [](const std::string& library) { set_matmul_library(library); }, "library"_a,
        "Which code computes float and complex matrix products: 'vendor' (the backend's BLAS, cuBLAS on CUDA, where "
        "it has one; the default) or 'own' (gpukit's kernels). Process-wide.");
    m.def("get_matmul_library", &matmul_library, "The matmul library set_matmul_library chose.");
    m.def(
        "tensordot",
        [](nb::handle a, nb::handle b, nb::handle axes) {
            const Array& x = to_array(a, "a");
            const Array& y = to_array(b, "b");
            if (nb::isinstance<nb::int_>(axes) || (PyIndex_Check(axes.ptr()) && !nb::isinstance<Array>(axes))) {
                const std::int64_t count = to_int64(axes, "axes");
                GilRelease unlocked;
                return tensordot(x, y, count);
            }
            if (!(nb::isinstance<nb::tuple>(axes) || nb::isinstance<nb::list>(axes)) || nb::len(axes) != 2)
                throw nb::type_error("tensordot: axes must be an int or a pair of sequences of axes (a's, b's)");
            const std::vector<std::int64_t> a_axes = to_axes(axes[0], "axes[0]"), b_axes = to_axes(axes[1], "axes[1]");
            GilRelease unlocked;
            return tensordot(x, y, a_axes, b_axes);
        },
        "a"_a.none(), "b"_a.none(), "axes"_a = 2,
        "The sum of products over the given axes, as numpy.tensordot (one matrix product).");
    m.def(
        "einsum",
        [](const nb::args& args, const nb::kwargs& kwargs) {
            if (args.size() == 0) throw nb::type_error("einsum() needs the subscripts and at least one operand");
            std::string subscripts;
            std::vector<Array> operands;
            if (nb::isinstance<nb::str>(args[0])) {
                subscripts = nb::cast<std::string>(args[0]);
                for (std::size_t i = 1; i < args.size(); ++i) operands.push_back(to_array(args[i], "operand"));
            } else {  // NumPy's other form: operand, [axis labels], operand, [labels], ..., [output labels]
                const auto labels_of = [](nb::handle sequence) {
                    std::string text;
                    for (nb::handle item : sequence) {
                        if (item.is(nb::handle(Py_Ellipsis))) {
                            text += "...";
                            continue;
                        }
                        const std::int64_t label = to_int64(item, "subscript", 0, 51);
                        text += static_cast<char>(label < 26 ? 'A' + label : 'a' + (label - 26));
                    }
                    return text;
                };
                std::size_t i = 0;
                for (; i + 1 < args.size(); i += 2) {
                    operands.push_back(to_array(args[i], "operand"));
                    subscripts += (i ? "," : "") + labels_of(args[i + 1]);
                }
                if (i < args.size()) subscripts += "->" + labels_of(args[i]);
            }
            EinsumOptions options;
            for (const auto& [key, value] : kwargs) {
                const std::string name = nb::cast<std::string>(key);
                if (name == "out") {
                    if (!value.is_none()) options.out = to_array(value, "out");
                } else if (name == "dtype") {
                    options.dtype = to_optional_dtype(value);
                } else if (name == "casting") {
                    options.casting = to_casting(value);
                } else if (name == "order" || name == "optimize") {
                    // Accepted: the result is C-ordered, and pairs are contracted as matrix products anyway.
                } else {
                    throw nb::type_error(("einsum() got an unexpected keyword argument '" + name + "'").c_str());
                }
            }
            GilRelease unlocked;
            return einsum(subscripts, operands, options);
        },
        nb::sig("def einsum(*operands: object, out: ndarray | None = None, dtype: object = None, "
                "order: str = 'K', casting: str = 'safe', optimize: object = False) -> ndarray"),
        "Einstein summation, as numpy.einsum: diagonals as views, sums, then matrix products.");
    m.def(
        "outer",
        [](nb::handle a, nb::handle b, nb::handle out) {
            const Array& x = to_array(a, "a");
            const Array& y = to_array(b, "b");
            std::optional<Array> into;
            if (!out.is_none()) into = to_array(out, "out");
            GilRelease unlocked;
            Array result = outer(x, y);
            if (!into) return result;
            if (into->shape() != result.shape())
                throw InvalidArgumentError("outer: out must have the shape (a.size, b.size)");
            copyto(*into, result);
            return *into;
        },
        "a"_a.none(), "b"_a.none(), "out"_a.none() = nb::none(),
        "Every element of the flattened a times every element of the flattened b, as numpy.outer.");
    m.def(
        "kron",
        [](nb::handle a, nb::handle b) {
            const Array& x = to_array(a, "a");
            const Array& y = to_array(b, "b");
            GilRelease unlocked;
            return kron(x, y);
        },
        "a"_a.none(), "b"_a.none(), "The Kronecker product, as numpy.kron.");
    nb::handle cls = nb::type<Array>();
    add_method(
        cls, "dot",
        [](const Array& self, nb::handle b, nb::handle out) {
            const Array& other = to_array(b, "b");
            const std::optional<Array> into = out.is_none() ? std::nullopt : std::optional(to_array(out, "out"));
            GilRelease unlocked;
            return into ? dot(self, other, *into) : dot(self, other);
        },
        "b"_a.none(), "out"_a.none() = nb::none(), "The dot product with b, as numpy.dot(self, b).");
    const auto trace_of = [](const Array& a, nb::handle offset, nb::handle axis1, nb::handle axis2, nb::handle dtype,
                             nb::handle out) {
        std::optional<Array> into;
        if (!out.is_none()) into = to_array(out, "out");
        const std::optional<DType> accumulate = to_optional_dtype(dtype);
        const std::int64_t k = to_int64(offset, "offset"), first = to_int64(axis1, "axis1"),
                           second = to_int64(axis2, "axis2");
        GilRelease unlocked;
        return trace(a, k, first, second, accumulate, into);
    };
    m.def(
        "trace",
        [trace_of](nb::handle a, nb::handle offset, nb::handle axis1, nb::handle axis2, nb::handle dtype,
                   nb::handle out) { return trace_of(to_array(a, "a"), offset, axis1, axis2, dtype, out); },
        "a"_a.none(), "offset"_a = 0, "axis1"_a = 0, "axis2"_a = 1, "dtype"_a.none() = nb::none(),
        "out"_a.none() = nb::none(), "The sums along the diagonals, as numpy.trace.");
    add_method(
        cls, "trace",
        [trace_of](const Array& self, nb::handle offset, nb::handle axis1, nb::handle axis2, nb::handle dtype,
                   nb::handle out) { return trace_of(self, offset, axis1, axis2, dtype, out); },
        "offset"_a = 0, "axis1"_a = 0, "axis2"_a = 1, "dtype"_a.none() = nb::none(), "out"_a.none() = nb::none(),
        "The sums along the diagonals, as numpy.trace.");
    nb::module_ linalg = m.def_submodule("linalg", "Linear algebra, as numpy.linalg.");
    linalg.def(
        "norm",
        [](nb::handle x, nb::handle ord, nb::handle axis, nb::handle keepdims) {
            linalg::NormOptions options;
            options.ord = to_order(ord);
            if (!axis.is_none()) options.axis = to_axes(axis, "axis");
            options.keepdims = to_bool(keepdims, "keepdims");
            const Array& array = to_array(x, "x");
            GilRelease unlocked;
            return linalg::norm(array, options);
        },
        "x"_a.none(), "ord"_a.none() = nb::none(), "axis"_a.none() = nb::none(), "keepdims"_a = false,
        "A vector or matrix norm, as numpy.linalg.norm (the matrix 2-norms and the nuclear norm need an SVD, "
        "which gpukit does not have yet: InvalidArgumentError).");
}

}  // namespace gpukit::python
