// python/src/linalg.cpp: dot, vdot, inner, the products, and gpukit.linalg's norm and solvers
// (gpukit/linalg.hpp) with NumPy's arguments. Arguments in, the core's arrays out (tuples where
// NumPy returns several; python/gpukit/linalg.py makes them NumPy's named tuples).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cmath>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/creation.hpp"
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

// UPLO=: 'L' or 'U', as NumPy's (which raises ValueError for anything else).
linalg::Uplo to_uplo(nb::handle value) {
    const std::string text = to_str(value, "UPLO");
    if (text == "L") return linalg::Uplo::lower;
    if (text == "U") return linalg::Uplo::upper;
    throw InvalidArgumentError("UPLO argument must be 'L' or 'U'");
}

linalg::QRMode to_qr_mode(nb::handle value) {
    const std::string text = to_str(value, "mode");
    if (text == "reduced") return linalg::QRMode::reduced;
    if (text == "complete") return linalg::QRMode::complete;
    if (text == "r") return linalg::QRMode::r;
    if (text == "raw") return linalg::QRMode::raw;
    throw InvalidArgumentError("Unrecognized mode '" + text + "'");
}

// A tolerance (rcond, tol, rtol): None, a number, or an array broadcast over the stack.
std::optional<Array> to_tolerance(nb::handle value, const char* name) {
    if (value.is_none()) return std::nullopt;
    if (nb::isinstance<Array>(value)) return to_array(value, name);
    return full({}, to_scalar(value, name));
}

// The solvers of one square operand (inv, det, eigvalsh, ...): one array in, one out.
using Unary = Array (*)(const Array&);

void bind_solvers(nb::module_& linalg) {
    const struct {
        const char* name;
        Unary function;
        const char* doc;
    } unary[] = {
        {"inv", &linalg::inv, "The inverses of the matrices in the last two axes, as numpy.linalg.inv."},
        {"det", &linalg::det, "The determinants, as numpy.linalg.det."},
    };
    for (const auto& row : unary) {
        const Unary function = row.function;
        linalg.def(
            row.name,
            [function](nb::handle a) {
                const Array& x = to_array(a, "a");
                GilRelease unlocked;
                return function(x);
            },
            "a"_a.none(), row.doc);
    }
    linalg.def(
        "solve",
        [](nb::handle a, nb::handle b) {
            const Array& x = to_array(a, "a");
            const Array& y = to_array(b, "b");
            GilRelease unlocked;
            return linalg::solve(x, y);
        },
        "a"_a.none(), "b"_a.none(),
        "x with a @ x == b, as numpy.linalg.solve (b a stack of vectors only when it has one axis, as NumPy 2).");
    linalg.def(
        "slogdet",
        [](nb::handle a) {
            const Array& x = to_array(a, "a");
            GilRelease unlocked;
            linalg::SlogdetResult r = linalg::slogdet(x);
            return std::make_tuple(r.sign, r.logabsdet);
        },
        "a"_a.none(), "(sign, logabsdet) of the determinants, as numpy.linalg.slogdet.");
    linalg.def(
        "cholesky",
        [](nb::handle a, nb::handle upper) {
            const Array& x = to_array(a, "a");
            const bool up = to_bool(upper, "upper");
            GilRelease unlocked;
            return linalg::cholesky(x, up);
        },
        "a"_a.none(), nb::kw_only(), "upper"_a = false, "The Cholesky factors, as numpy.linalg.cholesky.");
    linalg.def(
        "qr",
        [](nb::handle a, nb::handle mode) {
            const Array& x = to_array(a, "a");
            const linalg::QRMode m = to_qr_mode(mode);
            GilRelease unlocked;
            linalg::QRResult r = linalg::qr(x, m);
            return std::make_tuple(r.Q, r.R);
        },
        "a"_a.none(), "mode"_a = "reduced", "(Q, R), or (h, tau) for mode 'raw', as numpy.linalg.qr.");
    linalg.def(
        "svd",
        [](nb::handle a, nb::handle full_matrices, nb::handle compute_uv, nb::handle hermitian) {
            const Array& x = to_array(a, "a");
            const bool full = to_bool(full_matrices, "full_matrices"), uv = to_bool(compute_uv, "compute_uv"),
                       herm = to_bool(hermitian, "hermitian");
            std::optional<linalg::SVDResult> r;
            std::optional<Array> values;
            {
                GilRelease unlocked;
                if (uv)
                    r = linalg::svd(x, full, herm);
                else
                    values = linalg::svdvals(x, herm);
            }
            return values ? nb::make_tuple(*values) : nb::make_tuple(r->U, r->S, r->Vh);
        },
        "a"_a.none(), "full_matrices"_a = true, "compute_uv"_a = true, "hermitian"_a = false,
        "(U, S, Vh), or (S,) without compute_uv, as numpy.linalg.svd.");
    linalg.def(
        "eigh",
        [](nb::handle a, nb::handle uplo, nb::handle vectors) {
            const Array& x = to_array(a, "a");
            const linalg::Uplo triangle = to_uplo(uplo);
            const bool with_vectors = to_bool(vectors, "vectors");
            std::optional<linalg::EighResult> r;
            std::optional<Array> values;
            {
                GilRelease unlocked;
                if (with_vectors)
                    r = linalg::eigh(x, triangle);
                else
                    values = linalg::eigvalsh(x, triangle);
            }
            return values ? nb::make_tuple(*values) : nb::make_tuple(r->eigenvalues, r->eigenvectors);
        },
        "a"_a.none(), "UPLO"_a = "L", "vectors"_a = true,
        "(eigenvalues, eigenvectors) of Hermitian matrices, or (eigenvalues,) without vectors, as numpy.linalg.eigh.");
    linalg.def(
        "lstsq",
        [](nb::handle a, nb::handle b, nb::handle rcond) {
            const Array& x = to_array(a, "a");
            const Array& y = to_array(b, "b");
            const std::optional<double> ratio = rcond.is_none() ? std::nullopt : std::optional(nb::cast<double>(rcond));
            GilRelease unlocked;
            linalg::LstsqResult r = linalg::lstsq(x, y, ratio);
            return std::make_tuple(r.x, r.residuals, r.rank, r.s);
        },
        "a"_a.none(), "b"_a.none(), "rcond"_a.none() = nb::none(),
        "(x, residuals, rank, s): the least-squares solution, as numpy.linalg.lstsq.");
    linalg.def(
        "pinv",
        [](nb::handle a, nb::handle rcond, nb::handle hermitian) {
            const Array& x = to_array(a, "a");
            const std::optional<Array> ratio = to_tolerance(rcond, "rcond");
            const bool herm = to_bool(hermitian, "hermitian");
            GilRelease unlocked;
            return linalg::pinv(x, ratio, herm);
        },
        "a"_a.none(), "rcond"_a.none() = nb::none(), "hermitian"_a = false,
        "The pseudo-inverses, as numpy.linalg.pinv (rcond None: 1e-15).");
    linalg.def(
        "matrix_rank",
        [](nb::handle a, nb::handle tol, nb::handle hermitian, nb::handle rtol) {
            const Array& x = to_array(a, "A");
            const std::optional<Array> bound = to_tolerance(tol, "tol"), ratio = to_tolerance(rtol, "rtol");
            const bool herm = to_bool(hermitian, "hermitian");
            GilRelease unlocked;
            return linalg::matrix_rank(x, bound, herm, ratio);
        },
        "A"_a.none(), "tol"_a.none() = nb::none(), "hermitian"_a = false, nb::kw_only(), "rtol"_a.none() = nb::none(),
        "The number of singular values above the tolerance, as numpy.linalg.matrix_rank.");
    linalg.def(
        "matrix_power",
        [](nb::handle a, nb::handle n) {
            const Array& x = to_array(a, "a");
            if (PyBool_Check(n.ptr()) || !PyIndex_Check(n.ptr())) raise_type_error("exponent must be an integer");
            const std::int64_t power = to_int64(n, "n");
            GilRelease unlocked;
            return linalg::matrix_power(x, power);
        },
        "a"_a.none(), "n"_a, "a to the integer power n, as numpy.linalg.matrix_power.");
    linalg.def(
        "eig",
        [](nb::handle a) {
            const Array& x = to_array(a, "a");
            GilRelease unlocked;
            linalg::EigResult r = linalg::eig(x);
            return std::make_tuple(r.eigenvalues, r.eigenvectors);
        },
        "a"_a.none(),
        "(eigenvalues, eigenvectors) of general square matrices, as numpy.linalg.eig (real where every eigenvalue "
        "of a real input is).");
    linalg.def(
        "eigvals",
        [](nb::handle a) {
            const Array& x = to_array(a, "a");
            GilRelease unlocked;
            return linalg::eigvals(x);
        },
        "a"_a.none(), "The eigenvalues of general square matrices, as numpy.linalg.eigvals.");
    linalg.def(
        "cond",
        [](nb::handle x, nb::handle p) {
            const Array& a = to_array(x, "x");
            const std::optional<linalg::NormOrder> order = to_order(p);
            GilRelease unlocked;
            return linalg::cond(a, order);
        },
        "x"_a.none(), "p"_a.none() = nb::none(),
        "The condition numbers in the norm p (None, 2, -2, 'fro', 'nuc', inf, -inf, 1, -1), as numpy.linalg.cond.");
    linalg.def(
        "multi_dot",
        [](nb::handle arrays, nb::handle out) {
            const std::vector<Array> operands = to_arrays(arrays, "arrays");
            std::optional<Array> into;
            if (!out.is_none()) into = to_array(out, "out");
            GilRelease unlocked;
            return linalg::multi_dot(operands, into);
        },
        "arrays"_a, nb::kw_only(), "out"_a.none() = nb::none(),
        "The product of two or more arrays in the cheapest order, as numpy.linalg.multi_dot.");
    linalg.def(
        "tensorinv",
        [](nb::handle a, nb::handle ind) {
            const Array& x = to_array(a, "a");
            const std::int64_t split = to_int64(ind, "ind");
            GilRelease unlocked;
            return linalg::tensorinv(x, split);
        },
        "a"_a.none(), "ind"_a = 2,
        "The inverse of a tensor as a matrix of its first ind axes, as numpy.linalg.tensorinv.");
    linalg.def(
        "tensorsolve",
        [](nb::handle a, nb::handle b, nb::handle axes) {
            const Array& x = to_array(a, "a");
            const Array& y = to_array(b, "b");
            std::optional<std::vector<std::int64_t>> moved;
            if (!axes.is_none()) moved = to_axes(axes, "axes");
            GilRelease unlocked;
            return linalg::tensorsolve(x, y, moved);
        },
        "a"_a.none(), "b"_a.none(), "axes"_a.none() = nb::none(),
        "x with tensordot(a, x, x.ndim) == b, as numpy.linalg.tensorsolve.");
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
        "vecdot",
        [](nb::handle a, nb::handle b, nb::handle axis) {
            const Array& x = to_array(a, "x1");
            const Array& y = to_array(b, "x2");
            const std::int64_t along = to_int64(axis, "axis");
            GilRelease unlocked;
            return vecdot(x, y, along);
        },
        "x1"_a.none(), "x2"_a.none(), nb::kw_only(), "axis"_a.none() = -1,
        "The sums over `axis` of conj(x1) * x2, the other axes broadcast, as numpy.vecdot.");
    m.def(
        "cross",
        [](nb::handle a, nb::handle b, nb::handle axisa, nb::handle axisb, nb::handle axisc, nb::handle axis) {
            const Array& x = to_array(a, "a");
            const Array& y = to_array(b, "b");
            std::int64_t along_a = to_int64(axisa, "axisa"), along_b = to_int64(axisb, "axisb"),
                         along_c = to_int64(axisc, "axisc");
            if (!axis.is_none()) along_a = along_b = along_c = to_int64(axis, "axis");  // NumPy: axis overrides
            GilRelease unlocked;
            return cross(x, y, along_a, along_b, along_c);
        },
        "a"_a.none(), "b"_a.none(), "axisa"_a.none() = -1, "axisb"_a.none() = -1, "axisc"_a.none() = -1,
        "axis"_a.none() = nb::none(), "The cross products of vectors of 2 or 3 components, as numpy.cross.");
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
        "A vector or matrix norm, as numpy.linalg.norm.");
    linalg.def(
        "vector_norm",
        [](nb::handle x, nb::handle axis, nb::handle keepdims, nb::handle ord) {
            std::optional<std::vector<std::int64_t>> axes;
            if (!axis.is_none()) axes = to_axes(axis, "axis");
            const std::optional<linalg::NormOrder> order = to_order(ord);
            if (!order || !std::holds_alternative<double>(*order))
                throw nb::value_error("vector_norm: ord must be a number (inf, -inf, 0, 1, 2, any p)");
            const Array& array = to_array(x, "x");
            const bool keep = to_bool(keepdims, "keepdims");
            GilRelease unlocked;
            return linalg::vector_norm(array, axes, keep, std::get<double>(*order));
        },
        "x"_a.none(), nb::kw_only(), "axis"_a.none() = nb::none(), "keepdims"_a = false, "ord"_a.none() = 2,
        "The vector norm of order `ord` over `axis` (every axis when None), as numpy.linalg.vector_norm.");
    linalg.def(
        "matrix_norm",
        [](nb::handle x, nb::handle keepdims, nb::handle ord) {
            const std::optional<linalg::NormOrder> order = to_order(ord);
            if (!order) throw nb::value_error("matrix_norm: ord must be 'fro', 'nuc' or a number, not None");
            const Array& array = to_array(x, "x");
            const bool keep = to_bool(keepdims, "keepdims");
            GilRelease unlocked;
            return linalg::matrix_norm(array, keep, *order);
        },
        "x"_a.none(), nb::kw_only(), "keepdims"_a = false, "ord"_a.none() = "fro",
        "The norm of the matrices in the last two axes, as numpy.linalg.matrix_norm.");
    linalg.def(
        "cross",
        [](nb::handle a, nb::handle b, nb::handle axis) {
            const Array& x = to_array(a, "x1");
            const Array& y = to_array(b, "x2");
            const std::int64_t along = to_int64(axis, "axis");
            GilRelease unlocked;
            return linalg::cross(x, y, along);
        },
        "x1"_a.none(), "x2"_a.none(), nb::kw_only(), "axis"_a.none() = -1,
        "The cross products of vectors of 3 components along `axis`, as numpy.linalg.cross.");
    bind_solvers(linalg);
}

}  // namespace gpukit::python
