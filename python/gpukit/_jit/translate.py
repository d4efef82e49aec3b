"""A Python kernel, for one set of argument types, as CUDA C.

The function's source is parsed with :mod:`ast`; local variables get one type each, the
unification of every value assigned to them (found by iterating to a fixed point, since a loop
may feed a variable back into itself); then each statement is written out as C, preceded by a
``#line`` directive naming the Python file and line, so that compiler errors, check mode's
hazard reports and debuggers all point at the Python source.

Arrays arrive as a pointer, their shape and their strides in elements; indexing wraps negative
indices as Python does (Numba's default) and does not check bounds (check mode's memcheck does).
"""

import ast
import builtins
import collections
import inspect
import math
import textwrap
import urllib.parse

import numpy

from . import intrinsics
from .types import (
    BOOL,
    C_NAMES,
    COMPLEX128,
    FLOAT32,
    FLOAT64,
    HALF,
    INT32,
    INT64,
    WEAK_INT,
    Array,
    Scalar,
    StaticArray,
    Tuple,
    dtype_of,
    literal_type,
    promote,
    strong,
    unify,
)

# Python constructs the kernel language leaves out, named as the error says.
UNSUPPORTED = {
    ast.ListComp: "list comprehension",
    ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension",
    ast.GeneratorExp: "generator expression",
    ast.Lambda: "lambda",
    ast.List: "list",
    ast.Dict: "dict",
    ast.Set: "set",
    ast.JoinedStr: "f-string",
    ast.Starred: "starred expression",
    ast.Yield: "yield",
    ast.YieldFrom: "yield from",
    ast.Await: "await",
    ast.NamedExpr: "assignment expression (:=)",
    ast.Try: "try statement",
    ast.With: "with statement",
    ast.Raise: "raise statement",
    ast.Delete: "del statement",
    ast.Global: "global statement",
    ast.Nonlocal: "nonlocal statement",
    ast.ClassDef: "class definition",
    ast.FunctionDef: "nested function",
    ast.AsyncFunctionDef: "async function",
    ast.Import: "import statement",
    ast.ImportFrom: "import statement",
    ast.Assert: "assert statement",
    ast.Slice: "slice",
}

# Helpers the generated code may call: Python's floor division, modulo and integer power.
PRELUDE = r"""
template <class T> __device__ inline T gk_py_floordiv(T a, T b) {
    if (b == 0) return 0;
    T q = a / b;
    return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
}
template <class T> __device__ inline T gk_py_mod(T a, T b) {
    if (b == 0) return 0;
    T r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
template <class T> __device__ inline T gk_py_fmod(T a, T b) {
    T r = fmod(a, b);
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
template <class T> __device__ inline T gk_py_ipow(T base, T exponent) {
    T result = 1;
    for (; exponent > 0; exponent >>= 1, base *= base)
        if (exponent & 1) result *= base;
    return result;
}
// Atomic max/min of floats: a compare-and-swap loop on the bits (CUDA has none for floats). A NaN
// already stored stays; a NaN given is stored (max(x, nan) is nan, as Python's comparisons give it).
__device__ inline float gk_py_atomic_float(float* address, float value, bool maximum) {
    int* bits = (int*)address;
    int old = *bits, assumed;
    do {
        assumed = old;
        const float current = __int_as_float(assumed);
        if (current != current || (maximum ? current >= value : current <= value)) break;
        old = atomicCAS(bits, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}
__device__ inline double gk_py_atomic_float(double* address, double value, bool maximum) {
    unsigned long long* bits = (unsigned long long*)address;
    unsigned long long old = *bits, assumed;
    do {
        assumed = old;
        const double current = __longlong_as_double((long long)assumed);
        if (current != current || (maximum ? current >= value : current <= value)) break;
        old = atomicCAS(bits, assumed, (unsigned long long)__double_as_longlong(value));
    } while (assumed != old);
    return __longlong_as_double((long long)old);
}
template <class T> __device__ inline bool gk_py_isnan(T x) { return x != x; }
template <class T> __device__ inline bool gk_py_isfinite(T x) { return x - x == x - x; }
template <class T> __device__ inline bool gk_py_isinf(T x) { return x == x && !(x - x == x - x); }
template <class T> __device__ inline long long gk_py_wrap(T index, long long extent) {
    return index < 0 ? (long long)index + extent : (long long)index;
}
// A slice bound as Python clamps it: into [0, extent] for a positive step, [-1, extent - 1] for a negative one.
__device__ inline long long gk_py_slice_bound(long long index, long long extent, long long step) {
    const long long low = step > 0 ? 0 : -1, high = step > 0 ? extent : extent - 1;
    if (index < 0) index += extent;
    return index < low ? low : index > high ? high : index;
}
__device__ inline long long gk_py_slice_length(long long start, long long stop, long long step) {
    if (step > 0) return stop > start ? (stop - start + step - 1) / step : 0;
    return start > stop ? (start - stop - step - 1) / -step : 0;
}
"""

# Complex numbers as NumPy's complex64/complex128 (two floats, aligned as CUDA's float2/double2),
# included where a translation uses them. An aggregate: shared arrays of it need no constructor.
PRELUDE_COMPLEX = r"""
template <class T> struct alignas(2 * sizeof(T)) gk_py_complex { T re, im; };
// Between this complex and another of the same layout (the array layer's elementwise kernels').
template <class To, class From> __device__ inline To gk_py_bit_cast(const From& from) {
    static_assert(sizeof(To) == sizeof(From), "bit_cast between types of one size");
    To to;
    memcpy(&to, &from, sizeof to);
    return to;
}
template <class T, class U> __device__ inline gk_py_complex<T> gk_py_complex_of(U x) { return {(T)x, (T)0}; }
template <class T, class U> __device__ inline gk_py_complex<T> gk_py_complex_as(gk_py_complex<U> z) {
    return {(T)z.re, (T)z.im};
}
template <class T> __device__ inline gk_py_complex<T> operator+(gk_py_complex<T> a, gk_py_complex<T> b) {
    return {a.re + b.re, a.im + b.im};
}
template <class T> __device__ inline gk_py_complex<T> operator-(gk_py_complex<T> a, gk_py_complex<T> b) {
    return {a.re - b.re, a.im - b.im};
}
template <class T> __device__ inline gk_py_complex<T> operator-(gk_py_complex<T> a) { return {-a.re, -a.im}; }
template <class T> __device__ inline gk_py_complex<T> operator*(gk_py_complex<T> a, gk_py_complex<T> b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
// Smith's division, as NumPy divides: no overflow from squaring the divisor's parts.
template <class T> __device__ inline gk_py_complex<T> operator/(gk_py_complex<T> a, gk_py_complex<T> b) {
    const T abs_re = b.re < 0 ? -b.re : b.re, abs_im = b.im < 0 ? -b.im : b.im;
    if (abs_re >= abs_im) {
        if (abs_re == 0 && abs_im == 0) return {a.re / abs_re, a.im / abs_im};
        const T ratio = b.im / b.re, denominator = b.re + b.im * ratio;
        return {(a.re + a.im * ratio) / denominator, (a.im - a.re * ratio) / denominator};
    }
    const T ratio = b.re / b.im, denominator = b.re * ratio + b.im;
    return {(a.re * ratio + a.im) / denominator, (a.im * ratio - a.re) / denominator};
}
template <class T> __device__ inline bool operator==(gk_py_complex<T> a, gk_py_complex<T> b) {
    return a.re == b.re && a.im == b.im;
}
template <class T> __device__ inline bool operator!=(gk_py_complex<T> a, gk_py_complex<T> b) { return !(a == b); }
template <class T> __device__ inline T gk_py_cabs(gk_py_complex<T> z) { return hypot(z.re, z.im); }
template <class T> __device__ inline gk_py_complex<T> gk_py_conj(gk_py_complex<T> z) { return {z.re, -z.im}; }
template <class T> __device__ inline gk_py_complex<T> gk_py_cexp(gk_py_complex<T> z) {
    const T scale = exp(z.re);
    return {scale * cos(z.im), scale * sin(z.im)};
}
template <class T> __device__ inline gk_py_complex<T> gk_py_clog(gk_py_complex<T> z) {
    return {log(gk_py_cabs(z)), atan2(z.im, z.re)};
}
template <class T> __device__ inline gk_py_complex<T> gk_py_csqrt(gk_py_complex<T> z) {
    const T magnitude = gk_py_cabs(z);  // the principal root, its real part >= 0, as numpy.sqrt's
    const T re = sqrt((magnitude + (z.re < 0 ? -z.re : z.re)) / 2);
    if (re == 0) return {(T)0, z.im};
    const T other = z.im / (2 * re);
    return z.re >= 0 ? gk_py_complex<T>{re, other} : gk_py_complex<T>{other < 0 ? -other : other,
                                                                      z.im < 0 ? -re : re};
}
template <class T> __device__ inline gk_py_complex<T> gk_py_csin(gk_py_complex<T> z) {
    return {sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im)};
}
template <class T> __device__ inline gk_py_complex<T> gk_py_ccos(gk_py_complex<T> z) {
    return {cos(z.re) * cosh(z.im), -sin(z.re) * sinh(z.im)};
}
template <class T> __device__ inline gk_py_complex<T> gk_py_cpow(gk_py_complex<T> a, gk_py_complex<T> b) {
    if (b.re == 0 && b.im == 0) return {(T)1, (T)0};
    if (a.re == 0 && a.im == 0) return {(T)0, (T)0};
    return gk_py_cexp(b * gk_py_clog(a));
}
"""
COMPLEX_FUNCTIONS = {"exp": "gk_py_cexp", "log": "gk_py_clog", "sqrt": "gk_py_csqrt", "sin": "gk_py_csin",
                     "cos": "gk_py_ccos", "conjugate": "gk_py_conj", "conj": "gk_py_conj"}

# math / numpy functions of one or two floats: the C function for float and for double.
FLOAT_FUNCTIONS = {
    "sqrt": ("sqrtf", "sqrt"), "exp": ("expf", "exp"), "log": ("logf", "log"), "log2": ("log2f", "log2"),
    "log10": ("log10f", "log10"), "log1p": ("log1pf", "log1p"), "expm1": ("expm1f", "expm1"),
    "sin": ("sinf", "sin"), "cos": ("cosf", "cos"), "tan": ("tanf", "tan"), "asin": ("asinf", "asin"),
    "acos": ("acosf", "acos"), "atan": ("atanf", "atan"), "sinh": ("sinhf", "sinh"), "cosh": ("coshf", "cosh"),
    "tanh": ("tanhf", "tanh"), "asinh": ("asinhf", "asinh"), "acosh": ("acoshf", "acosh"),
    "atanh": ("atanhf", "atanh"), "fabs": ("fabsf", "fabs"), "erf": ("erff", "erf"), "erfc": ("erfcf", "erfc"),
    "gamma": ("tgammaf", "tgamma"), "lgamma": ("lgammaf", "lgamma"), "cbrt": ("cbrtf", "cbrt"),
    "arcsin": ("asinf", "asin"), "arccos": ("acosf", "acos"), "arctan": ("atanf", "atan"),
    "arcsinh": ("asinhf", "asinh"), "arccosh": ("acoshf", "acosh"), "arctanh": ("atanhf", "atanh"),
    "exp2": ("exp2f", "exp2"), "trunc": ("truncf", "trunc"), "rint": ("rintf", "rint"),
}
FLOAT_FUNCTIONS_2 = {
    "pow": ("powf", "pow"), "atan2": ("atan2f", "atan2"), "arctan2": ("atan2f", "atan2"),
    "hypot": ("hypotf", "hypot"), "fmod": ("fmodf", "fmod"), "copysign": ("copysignf", "copysign"),
    "power": ("powf", "pow"),
}
# Functions whose integer argument stays integer (math.floor/ceil give int, as in Python).
ROUNDING = {"floor": ("floorf", "floor"), "ceil": ("ceilf", "ceil")}
MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "tau": math.tau}


class Value:
    """A C expression and its type; a tuple's ``items`` are its elements' expressions. ``nonnegative``:
    known never to be below zero (a tuple's: every item), so that an index needs no wrap-around."""

    __slots__ = ("code", "type", "items", "nonnegative")

    def __init__(self, code, type_, items=None, nonnegative=False):
        self.code = code
        self.type = type_
        self.items = items
        self.nonnegative = nonnegative or (isinstance(type_, Scalar) and type_.kind in "bu")


def tuple_value(items, types, nonnegative=False):
    return Value("", Tuple(tuple(types)), list(items), nonnegative)


class Known:
    """A Python object the kernel names at compile time (a module, a function, a dtype, an intrinsic)."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj


def c_literal(value, t):
    if t.kind == "b":
        return "true" if value else "false"
    if t.kind == "c":
        part = _complex_part(t)
        value = complex(value)
        return f"{C_NAMES[t.dtype]}{{{c_literal(value.real, part)}, {c_literal(value.imag, part)}}}"
    if t.kind == "f" and t.dtype == HALF:  # rounded to half here, once: float32 holds it exactly
        return f"((__half)({c_literal(float(numpy.float16(value)), FLOAT32)}))"
    if t.kind == "f":
        if math.isnan(value):
            return "(0.0 / 0.0)" if t.dtype.itemsize == 8 else "(0.0f / 0.0f)"
        if math.isinf(value):
            return ("(1.0 / 0.0)" if value > 0 else "(-1.0 / 0.0)") if t.dtype.itemsize == 8 else \
                ("(1.0f / 0.0f)" if value > 0 else "(-1.0f / 0.0f)")
        text = repr(float(value))
        return text + ("f" if t.dtype.itemsize == 4 else "")
    if t.kind == "u":
        return f"{int(value)}ull"
    return f"{int(value)}ll" if -2**63 <= value < 2**63 else f"{int(value)}ull"


def line_file_name(path):
    """``path`` as ``#line`` may name it: NVRTC copies the name into the PTX's ``.file`` directive,
    which ptxas reads without C's escapes, so quotes, backslashes and non-ASCII characters are
    percent-encoded (a path of ordinary characters is kept as it is)."""
    return urllib.parse.quote(path, safe="/ _.-+~,:@=")


def c_name_part(name):
    """``name`` as part of a generated C name: ASCII letters and digits kept, anything else '_'."""
    return "".join(c if c.isascii() and c.isalnum() else "_" for c in name)


def program_name_of(function):
    """The program name a translation of ``function`` compiles under (what compile errors name):
    its file's base name reduced to [A-Za-z0-9._-], with .cu."""
    file_name = function.__code__.co_filename.rsplit("/", 1)[-1]
    return "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in file_name)[:200] + ".cu"


def c_identifier(name):
    """A Python identifier (maybe non-ASCII) as a C one that cannot clash with C's or ours."""
    if name.isascii():
        return "py_" + name
    return "py_" + "".join(c if c.isascii() and (c.isalnum() or c == "_") else f"_u{ord(c):x}_" for c in name)


class KernelSource:
    """The translation of ``function`` for ``arg_types``: ``code`` (CUDA C), ``name`` (the kernel's)."""

    def __init__(self, function, arg_types, *, device=False, callers=()):
        self.function = function
        self.device = device  # a device function: returns a value, called from kernels
        self.callers = callers + (function,)  # the functions being translated, for refusing recursion
        self.return_type = None
        self.callees = {}  # (function, argument types) -> KernelSource, emitted before this one
        self.filename = line_file_name(function.__code__.co_filename)
        self.line_file = f'"{self.filename}"'  # a C string as it is: line_file_name left nothing to escape
        try:
            lines, first_line = inspect.getsourcelines(function)
        except (OSError, TypeError) as error:
            raise TypeError(f"gpukit.jit needs the source of {function.__qualname__} to translate it, and "
                            f"Python has none ({error}): define kernels in a file or a notebook cell") from None
        tree = ast.parse(textwrap.dedent("".join(lines)))
        ast.increment_lineno(tree, first_line - 1)
        definition = tree.body[0]
        if not isinstance(definition, ast.FunctionDef):
            raise TypeError(f"gpukit.jit translates functions; {function.__qualname__} is not one")
        self.definition = definition
        self.arg_names = [a.arg for a in definition.args.args]
        if (definition.args.vararg or definition.args.kwarg or definition.args.kwonlyargs
                or definition.args.posonlyargs or definition.args.defaults):
            raise self.error(definition, "*args, **kwargs, keyword-only arguments and defaults are not supported "
                             "in a kernel's parameters")
        if len(arg_types) != len(self.arg_names):
            raise TypeError(f"{function.__qualname__} takes {len(self.arg_names)} argument"
                            f"{'s' if len(self.arg_names) != 1 else ''}, not {len(arg_types)}")
        self.arg_types = dict(zip(self.arg_names, arg_types))
        # The names the kernel reads: its closure's, then its module's, read live (a copy of the
        # module's namespace would keep every array in it alive as long as the kernel).
        self.names = collections.ChainMap(_closure(function), function.__globals__)
        self.name = ("gk_jit_device_" if device else "gk_jit_") + c_name_part(function.__name__)
        if device:  # one C function per argument-type signature
            self.name += "_" + "_".join(_type_tag(t) for t in arg_types)
        self.variables = {}        # local name -> type
        self.static_arrays = {}    # local name -> StaticArray (shared/local), declared at the top
        self.aliases = {}          # local name -> a module, intrinsic or function it names (tid = cuda.threadIdx)
        self.uses_dynamic_shared = False  # then the kernel takes the launch's dynamic shared bytes
        self.lines, self.depth, self.temporaries = [], 1, 0
        self.maybe_negative = set()  # locals some assignment may make negative (others are indices >= 0)
        self._infer()
        self.code = self._emit()
        self.names = self.aliases = None  # translated: what the names held need not outlive this

    # ---- errors

    def error(self, node, message, kind=TypeError):
        where = f"{self.filename.rsplit('/', 1)[-1]}:{getattr(node, 'lineno', '?')}"
        return kind(f"{message} at {where} (in kernel {self.function.__qualname__})")

    def unsupported(self, node, what=None):
        what = what or UNSUPPORTED.get(type(node), type(node).__name__)
        where = f"{self.filename.rsplit('/', 1)[-1]}:{getattr(node, 'lineno', '?')}"
        return NotImplementedError(f"{what} at {where} is not supported inside a kernel "
                                   f"({self.function.__qualname__})")

    # ---- type inference: every assignment's type unified into its variable's, to a fixed point

    def _infer(self):
        self.emitting = False
        for _ in range(20):
            before = dict(self.variables), set(self.maybe_negative)
            self._statements(self.definition.body)
            if before == (self.variables, self.maybe_negative):
                return
        raise self.error(self.definition, "the variables' types do not settle")

    def assign_type(self, node, name, t, nonnegative=False):
        if not nonnegative:
            self.maybe_negative.add(name)
        if name in self.arg_types:
            old = self.arg_types[name]
            if unify(old, t) != old and not (isinstance(old, Scalar) and isinstance(t, Scalar)):
                raise self.error(node, f"argument {name!r} is {old}; it cannot be assigned {t}")
            return
        if isinstance(t, StaticArray):
            previous = self.static_arrays.get(name)
            if previous is not None and previous != t:
                raise self.error(node, f"{name!r} is {previous} and cannot also be {t}")
            self.static_arrays[name] = t
            return
        if name in self.aliases:
            raise self.error(node, f"{name!r} names {self.aliases[name]!r} and cannot also hold {t}")
        # A variable keeps a Python number's weakness while every value it is given is one (NumPy 2:
        # `total = 0.0; total += x[i]` with float32 x is float32, as `0.0 + numpy.float32(1)` is).
        old = self.variables.get(name)
        self.variables[name] = t if old is None else unify(old, t) or _fail(self, node, name, old, t)

    # ---- code emission

    def _emit(self):
        self.emitting = True
        self.lines = []
        self.depth = 1
        self.temporaries = 0
        params = []
        for name in self.arg_names:
            params.extend(_params_of(name, self.arg_types[name]))
        if self.uses_dynamic_shared:
            params.append("long long gk_dynamic_shared_bytes")
        body_start = len(self.lines)
        self._statements(self.definition.body)
        body = self.lines[body_start:]
        if self.device:
            result = "void" if self.return_type is None else _c(self.return_type.dtype)
            signature = f"__device__ inline {result} {self.name}({', '.join(params)}) {{"
        else:
            signature = f'extern "C" __global__ void {self.name}({", ".join(params)}) {{'
        header = [f'#line {self.definition.lineno} {self.line_file}', signature]
        constants = []
        for name, t in self.static_arrays.items():
            size = math.prod(t.shape)
            if t.space == "const":
                values = ", ".join(c_literal(v, Scalar(t.dtype)) for v in t.values)
                constants.append(f"__constant__ {_c(t.dtype)} {self.static_symbol(name, t)}[{max(size, 1)}] = "
                                 f"{{{values or '0'}}};\n")
                continue
            qualifier = "__shared__ " if t.space == "shared" else ""
            if t.space == "shared" and size == 0:
                header.append(f"    extern __shared__ {C_ALIGNED} unsigned char gk_dynamic_shared[];")
                header.append(f"    {_c(t.dtype)}* const {c_identifier(name)} = "
                              f"({_c(t.dtype)}*)gk_dynamic_shared;")
            else:
                header.append(f"    {qualifier}{_c(t.dtype)} {c_identifier(name)}[{max(size, 1)}];")
        for name, t in self.variables.items():
            header.extend(_declare(name, t))
        self.definition_code = "".join(constants) + "\n".join(header + body) + "\n}\n"
        return self.preamble()

    def preamble(self):
        """The C this translation needs in front of a launch: PRELUDE, the device functions and
        this function (with <cuda_fp16.h> when float16 is used: its header is large to compile)."""
        code = self.functions_code() + self.definition_code
        return (("#include <cuda_fp16.h>\n" if "__half" in code else "") + PRELUDE
                + (PRELUDE_COMPLEX if "gk_py_complex" in code else "") + code)

    def functions_code(self):
        """The device functions this one calls, each once, callees before callers (without the prelude)."""
        seen, out = set(), []

        def visit(source):
            for callee in source.callees.values():
                if callee.name not in seen:
                    visit(callee)
                    seen.add(callee.name)
                    out.append(callee.definition_code)

        visit(self)
        return "".join(out)

    def static_symbol(self, name, t):
        """The C name of a static array: a constant one lives at file scope, named for its function."""
        return f"gk_const_{self.name}_{c_identifier(name)}" if t.space == "const" else c_identifier(name)

    def line(self, node, text):
        if not self.emitting:
            return
        self.lines.append(f"#line {node.lineno} {self.line_file}")
        self.lines.append("    " * self.depth + text)

    def temporary(self, t):
        self.temporaries += 1
        return f"gk_t{self.temporaries}"

    # ---- statements

    def _statements(self, statements):
        for statement in statements:
            self._statement(statement)

    def _statement(self, node):
        method = getattr(self, "_stmt_" + type(node).__name__, None)
        if method is None:
            raise self.unsupported(node)
        try:
            method(node)
        except _NotYet:
            pass  # inference only: a name this statement reads gets its type from a later statement

    def _stmt_Pass(self, node):
        pass

    def _stmt_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a docstring
        value = self.expr(node.value)
        if isinstance(value, Value):
            self.line(node, f"(void)({value.code});")

    def _stmt_Return(self, node):
        has_value = node.value is not None and not (isinstance(node.value, ast.Constant) and node.value.value is None)
        if has_value and not self.device:
            raise self.error(node, "a kernel cannot return a value; write results into an array argument")
        if not has_value:
            self.line(node, "return;")
            return
        value = self.rvalue(node.value)
        if not isinstance(value.type, Scalar):
            raise self.error(node, f"a device function returns a number, not {value.type}")
        if not self.emitting:
            merged = strong(value.type) if self.return_type is None else unify(self.return_type, value.type)
            if merged is None:
                raise self.error(node, f"the function returns {self.return_type} and also {value.type}")
            self.return_type = strong(merged)
            return
        self.line(node, f"return {self.cast(value, self.return_type)};")

    def _stmt_Break(self, node):
        self.line(node, "break;")

    def _stmt_Continue(self, node):
        self.line(node, "continue;")

    def _stmt_Assign(self, node):
        if len(node.targets) != 1:
            raise self.unsupported(node, "chained assignment (a = b = ...)")
        target = node.targets[0]
        if isinstance(target, ast.Tuple):
            return self._unpack(node, target, node.value)
        value = self.expr(node.value)
        self.store(node, target, value)

    def _stmt_AnnAssign(self, node):
        if node.value is None:
            raise self.unsupported(node, "a declaration without a value")
        self.store(node, node.target, self.expr(node.value))

    def _unpack(self, node, target, value_node):
        if isinstance(value_node, ast.Tuple):
            values = [self.expr(v) for v in value_node.elts]
            values = [self.known_value(v) or v if isinstance(v, Known) else v for v in values]
        else:
            value = self.rvalue(value_node)
            if not isinstance(value.type, Tuple):
                raise self.error(node, f"cannot unpack {value.type} into {len(target.elts)} names")
            values = [Value(item, t, nonnegative=value.nonnegative) for item, t in zip(value.items, value.type.items)]
        if len(values) != len(target.elts):
            raise self.error(node, f"cannot unpack {len(values)} values into {len(target.elts)} names")
        # Evaluate every value before any store: a, b = b, a swaps.
        held = []
        for value in values:
            if isinstance(value, Known) or isinstance(value.type, (Array, StaticArray)):
                held.append(value)  # names, not values; an array view is evaluated already
                continue
            name = self.temporary(value.type)
            if self.emitting:
                self.line(node, f"const {_c(strong(value.type).dtype)} {name} = {value.code};")
            held.append(Value(name, value.type, nonnegative=value.nonnegative))
        for element, value in zip(target.elts, held):
            self.store(node, element, value)

    def store(self, node, target, value):
        if isinstance(value, Known):
            number = self.known_value(value)
            if number is None:
                if not isinstance(target, ast.Name):
                    raise self.error(node, f"{type(value.obj).__name__} cannot be stored into an array")
                self.alias(node, target.id, value.obj)
                return
            value = number
        if isinstance(target, ast.Name):
            self.assign_type(node, target.id, value.type, value.nonnegative)
            if isinstance(value.type, StaticArray):
                return  # declared at the top
            t = self.arg_types.get(target.id) or self.variables[target.id]
            if isinstance(t, Tuple):
                if not isinstance(value.type, Tuple) or len(value.type.items) != len(t.items):
                    raise self.error(node, f"{target.id!r} holds {t}, not {value.type}")
                for k, (item, given, item_type) in enumerate(zip(value.items, value.type.items, t.items)):
                    self.line(node, f"{c_identifier(target.id)}_{k} = {self.cast(Value(item, given), item_type)};")
            elif isinstance(t, Array):
                name = c_identifier(target.id)
                self.line(node, " ".join([f"{name} = {value.code};"]
                                         + [f"{name}_shape{k} = {_extent(value.code, value.type, k)};"
                                            for k in range(t.ndim)]
                                         + [f"{name}_stride{k} = {_stride(value.code, value.type, k)};"
                                            for k in range(t.ndim)]))
            else:
                self.line(node, f"{c_identifier(target.id)} = {self.cast(value, t)};")
        elif isinstance(target, ast.Subscript):
            element, t = self.element(target)
            if not isinstance(value.type, Scalar):
                raise self.error(node, f"cannot store {value.type} into an element of {t}")
            self.line(node, f"{element} = {self.cast(value, Scalar(t.dtype))};")
        elif isinstance(target, ast.Attribute):
            raise self.unsupported(target, "assignment to an attribute")
        else:
            raise self.unsupported(target)

    def _stmt_AugAssign(self, node):
        target = node.target
        if isinstance(target, ast.Name):
            current = self.expr(ast.Name(id=target.id, ctx=ast.Load(), lineno=node.lineno))
            self.store(node, target, self.binary(node, node.op, current, self.rvalue(node.value)))
        elif isinstance(target, ast.Subscript):
            element, t = self.element(target)
            current = Value(element, Scalar(t.dtype))
            result = self.binary(node, node.op, current, self.rvalue(node.value))
            self.line(node, f"{element} = {self.cast(result, Scalar(t.dtype))};")
        else:
            raise self.unsupported(target)

    def _stmt_If(self, node):
        test = self.condition(node.test)
        self.line(node, f"if ({test}) {{")
        self.block(node.body)
        if node.orelse:
            self.line(node, "} else {")
            self.block(node.orelse)
        self.line(node, "}")

    def _stmt_While(self, node):
        if node.orelse:
            raise self.unsupported(node, "while ... else")
        self.line(node, f"while ({self.condition(node.test)}) {{")
        self.block(node.body)
        self.line(node, "}")

    def _stmt_For(self, node):
        if node.orelse:
            raise self.unsupported(node, "for ... else")
        iterator = node.iter
        if not (isinstance(iterator, ast.Call) and isinstance(self.expr(iterator.func), Known)
                and self.expr(iterator.func).obj is range):
            raise self.unsupported(iterator, "a for loop over anything but range(...)")
        if iterator.keywords or not 1 <= len(iterator.args) <= 3:
            raise self.error(iterator, "range takes 1 to 3 positional arguments")
        if not isinstance(node.target, ast.Name):
            raise self.unsupported(node.target, "a for loop target other than one name")
        args = [self.rvalue(a) for a in iterator.args]
        for arg, arg_node in zip(args, iterator.args):
            if not (isinstance(arg.type, Scalar) and arg.type.kind in "biu"):
                raise self.error(arg_node, f"range() takes integers, not {arg.type}")
        one = Value("1ll", WEAK_INT, nonnegative=True)
        if len(args) == 1:
            start, stop, step = Value("0ll", WEAK_INT, nonnegative=True), args[0], one
        else:
            start, stop, step = args[0], args[1], args[2] if len(args) == 3 else one
        t = promote(promote(start.type, stop.type), step.type)  # Python ints from a range of Python ints
        if t.kind == "b":
            t = INT64
        constant_step = _constant_int(iterator.args[2]) if len(args) == 3 else 1
        self.assign_type(node, node.target.id, t, start.nonnegative and constant_step is not None and constant_step > 0)
        var = c_identifier(node.target.id)
        vt = self.variables[node.target.id]
        n = self.temporaries = self.temporaries + 1
        self.line(node, "{")
        self.depth += 1
        self.line(node, f"const {_c(vt.dtype)} gk_stop{n} = {self.cast(stop, vt)}, gk_step{n} = {self.cast(step, vt)};")
        if constant_step is not None:
            test = f"{var} < gk_stop{n}" if constant_step > 0 else f"{var} > gk_stop{n}"
        else:
            test = f"(gk_step{n} > 0 ? {var} < gk_stop{n} : {var} > gk_stop{n})"
        self.line(node, f"for ({var} = {self.cast(start, vt)}; {test}; {var} += gk_step{n}) {{")
        self.block(node.body)
        self.line(node, "}")
        self.depth -= 1
        self.line(node, "}")

    def block(self, statements):
        self.depth += 1
        self._statements(statements)
        self.depth -= 1

    def alias(self, node, name, obj):
        """``name = cuda.threadIdx`` and the like: a local name for something that is not a value."""
        if name in self.arg_types or name in self.variables or name in self.static_arrays:
            raise self.error(node, f"{name!r} holds a value and cannot also name {type(obj).__name__}")
        if self.aliases.setdefault(name, obj) is not obj:
            raise self.error(node, f"{name!r} already names {self.aliases[name]!r}; it cannot name {obj!r} too")

    # ---- expressions

    def known_value(self, known):
        """A Python number or NumPy scalar the kernel names, as a value; None for anything else."""
        obj = known.obj
        if isinstance(obj, numpy.generic) and dtype_of(obj.dtype) is not None:
            t = Scalar(obj.dtype)
            return Value(c_literal(obj.item(), t), t)
        t = literal_type(obj)
        return None if t is None else Value(c_literal(obj, t), t, nonnegative=not isinstance(obj, complex) and obj >= 0)

    def rvalue(self, node):
        value = self.expr(node)
        if isinstance(value, Known):
            number = self.known_value(value)
            if number is None:
                raise self.error(node, f"{ast.unparse(node)} is {type(value.obj).__name__}, not a value a kernel "
                                 "can use")
            return number
        return value

    def condition(self, node):
        value = self.rvalue(node)
        if not isinstance(value.type, Scalar):
            raise self.error(node, f"a condition must be a number or a bool, not {value.type}")
        if value.type.kind == "b":
            return f"({value.code})"
        if value.type.kind == "c":
            return f"(({value.code}).re != 0 || ({value.code}).im != 0)"
        return f"(({self.cast(value, FLOAT32)}) != 0)" if value.type.dtype == HALF else f"(({value.code}) != 0)"

    def cast(self, value, t):
        if value.type == t:
            return value.code
        source = value.type.dtype if isinstance(value.type, Scalar) else None
        if t.kind == "c" and source is not None and source != t.dtype:
            part = _complex_part(t)
            if source.kind == "c":
                return f"gk_py_complex_as<{_c(part.dtype)}>({value.code})"
            return f"gk_py_complex_of<{_c(part.dtype)}>({self.cast(value, part)})"
        if source is not None and source.kind == "c" and t.kind != "c":
            raise TypeError(f"a complex number does not convert to {t.dtype.name}: take .real, .imag or abs() of it")
        if t.dtype == HALF and source == FLOAT64.dtype:  # one rounding, as NumPy's (through float32 rounds twice)
            return f"__double2half({value.code})"
        if HALF in (source, t.dtype) and source != t.dtype:  # through float32: exact from half, one rounding to it
            inner = value.code if source == FLOAT32.dtype else f"((float)({value.code}))"
            return inner if t.dtype == FLOAT32.dtype else f"(({_c(t.dtype)})({inner}))"
        return f"(({_c(t.dtype)})({value.code}))"

    def expr(self, node):
        if type(node) in UNSUPPORTED:
            raise self.unsupported(node)
        method = getattr(self, "_expr_" + type(node).__name__, None)
        if method is None:
            raise self.unsupported(node)
        return method(node)

    def _expr_Constant(self, node):
        t = literal_type(node.value)
        if t is None:
            what = "string" if isinstance(node.value, str) else type(node.value).__name__
            raise self.unsupported(node, f"a {what} constant")
        return Value(c_literal(node.value, t), t, nonnegative=not isinstance(node.value, complex) and node.value >= 0)

    def _expr_Name(self, node):
        name = node.id
        if name in self.arg_types:
            t = self.arg_types[name]
            if isinstance(t, Tuple):
                return Value("", t, [f"{c_identifier(name)}_{k}" for k in range(len(t.items))])
            return Value(c_identifier(name), t)
        if name in self.static_arrays:
            t = self.static_arrays[name]
            return Value(self.static_symbol(name, t), t)
        if name in self.variables:
            t = self.variables[name]
            nonnegative = name not in self.maybe_negative
            if isinstance(t, Tuple):
                return Value("", t, [f"{c_identifier(name)}_{k}" for k in range(len(t.items))], nonnegative)
            return Value(c_identifier(name), t, nonnegative=nonnegative)
        if name in self.aliases:
            return Known(self.aliases[name])
        if name in self.names:
            return Known(self.names[name])
        if hasattr(builtins, name):
            return Known(getattr(builtins, name))
        if not self.emitting:
            # Assigned later in program order (a loop's next pass): its type comes on the next pass.
            raise _NotYet()
        raise self.error(node, f"name {name!r} is not defined", NameError)

    def _expr_Attribute(self, node):
        base = self.expr(node.value)
        if isinstance(base, Known):
            obj = base.obj
            if isinstance(obj, intrinsics.Dim3Intrinsic) and node.attr in ("x", "y", "z"):
                return Value(f"((int){obj.name}.{node.attr})", INT32, nonnegative=True)
            if node.attr == "laneid" and obj is _cuda_module():
                return Value(LANE, INT32, nonnegative=True)
            try:
                return Known(getattr(obj, node.attr))
            except AttributeError:
                raise self.error(node, f"{ast.unparse(node.value)} has no attribute {node.attr!r}",
                                 AttributeError) from None
        t = base.type
        if isinstance(t, (Array, StaticArray)):
            if node.attr == "shape":
                # Python ints in NumPy, so weak: x[i] * x.shape[0] keeps x's dtype.
                return tuple_value([_extent(base.code, t, k) for k in range(t.ndim)], (WEAK_INT,) * t.ndim, True)
            if node.attr == "size":
                return Value("(" + " * ".join([_extent(base.code, t, k) for k in range(t.ndim)] or ["1ll"]) + ")",
                             WEAK_INT, nonnegative=True)
            if node.attr == "ndim":
                return Value(f"{t.ndim}ll", WEAK_INT, nonnegative=True)
        if isinstance(t, Scalar) and t.kind == "c" and node.attr in ("real", "imag"):
            return Value(f"({base.code}).{node.attr[:2]}", _complex_part(t))
        if isinstance(t, Scalar) and node.attr in ("real",):
            return base
        if isinstance(t, Scalar) and node.attr == "imag":
            return Value(f"(({_c(t.dtype)})0)", t)
        raise self.unsupported(node, f"the attribute .{node.attr} of {t}")

    def _expr_Subscript(self, node):
        base = self.expr(node.value)
        if isinstance(base, Value) and isinstance(base.type, Tuple):
            index = _constant_int(node.slice)
            if index is None:
                raise self.error(node, "a tuple's index must be a constant integer")
            items = base.items
            if not -len(items) <= index < len(items):
                raise self.error(node, f"tuple index {index} out of range for {base.type}", IndexError)
            return Value(items[index], base.type.items[index], nonnegative=base.nonnegative)
        index_nodes = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if isinstance(base, Value) and isinstance(base.type, (Array, StaticArray)) and (
                any(isinstance(i, ast.Slice) for i in index_nodes) or len(index_nodes) < base.type.ndim):
            return self.view(node, base, index_nodes)
        element, t = self.element(node, base)
        return Value(element, Scalar(t.dtype))

    def view(self, node, base, index_nodes):
        """``a[i, 2:n]``, ``a[i]`` of a 2-d array and the like: a view (pointer, shape and strides in C
        locals) of an array, as NumPy's basic indexing gives; slices clamp their bounds as Python's."""
        t = base.type
        if len(index_nodes) > t.ndim:
            raise self.error(node, f"{ast.unparse(node.value)} has {t.ndim} dimension{'s' if t.ndim != 1 else ''}; "
                             f"{len(index_nodes)} indices given", IndexError)
        index_nodes = list(index_nodes) + [ast.Slice()] * (t.ndim - len(index_nodes))
        name = self.temporary(t)
        offsets, shapes, strides, lines = [], [], [], []
        for k, index_node in enumerate(index_nodes):
            extent, stride = _extent(base.code, t, k), _stride(base.code, t, k)
            if not isinstance(index_node, ast.Slice):
                index = self.rvalue(index_node)
                if not (isinstance(index.type, Scalar) and index.type.kind in "biu"):
                    raise self.error(node, f"array indices must be integers; index {k} is {index.type}", IndexError)
                position = index.code if index.nonnegative else f"gk_py_wrap({index.code}, {extent})"
                offsets.append(f"({position}) * {stride}")
                continue
            step = 1 if index_node.step is None else _constant_int(index_node.step)
            if step is None or step == 0:
                raise self.error(node, "a slice's step must be a constant integer other than 0 in a kernel",
                                 ValueError)
            bounds = []
            for bound, default in ((index_node.lower, "0ll" if step > 0 else f"({extent} - 1)"),
                                   (index_node.upper, extent if step > 0 else "-1ll")):
                if bound is None:
                    bounds.append(default)
                    continue
                value = self.rvalue(bound)
                if not (isinstance(value.type, Scalar) and value.type.kind in "iu"):
                    raise self.error(node, f"slice bounds must be integers, not {value.type}", IndexError)
                bounds.append(f"gk_py_slice_bound({value.code}, {extent}, {step})")
            dimension = len(shapes)
            lines.append(f"const long long {name}_start{dimension} = {bounds[0]};")
            shapes.append(f"gk_py_slice_length({name}_start{dimension}, {bounds[1]}, {step})")
            strides.append(f"{step} * {stride}" if step != 1 else stride)
            offsets.append(f"{name}_start{dimension} * {stride}")
        last = index_nodes[-1]
        contiguous = (isinstance(last, ast.Slice) and last.step is None and bool(shapes)
                      and (isinstance(t, StaticArray) or t.contiguous))
        result = Array(t.dtype, len(shapes), contiguous, isinstance(t, StaticArray) or t.index32)
        if not shapes:
            raise self.error(node, "indexing every dimension gives an element, not a view")
        lines.append(f"{_c(t.dtype)}* const {name} = {base.code} + ({' + '.join(offsets) or '0'});")
        lines += [f"const long long {name}_shape{d} = {shape};" for d, shape in enumerate(shapes)]
        lines += [f"const long long {name}_stride{d} = {stride};" for d, stride in enumerate(strides)]
        for text in lines:
            self.line(node, text)
        return Value(name, result)

    def element(self, node, base=None):
        """An array element ``node`` names, as a C lvalue, and the array's type (``base``: the
        indexed value where the caller has it already, so that it is not translated twice)."""
        base = self.expr(node.value) if base is None else base
        if not isinstance(base, Value) or not isinstance(base.type, (Array, StaticArray)):
            what = base.type if isinstance(base, Value) else type(base.obj).__name__
            raise self.error(node, f"{ast.unparse(node.value)} is {what}, which cannot be indexed")
        t = base.type
        index_nodes = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        indices = []
        for index_node in index_nodes:
            if isinstance(index_node, ast.Slice):
                raise self.unsupported(index_node, "slicing an array")
            value = self.rvalue(index_node)
            if isinstance(value.type, Tuple):
                indices.extend(Value(item, it, nonnegative=value.nonnegative)
                               for item, it in zip(value.items, value.type.items))
            else:
                indices.append(value)
        if len(indices) != t.ndim:
            raise self.error(node, f"{ast.unparse(node.value)} has {t.ndim} dimension"
                             f"{'s' if t.ndim != 1 else ''}; {len(indices)} indices given", IndexError)
        terms = []
        index32 = isinstance(t, StaticArray) or t.index32
        for k, index in enumerate(indices):
            if not (isinstance(index.type, Scalar) and index.type.kind in "biu"):
                raise self.error(node, f"array indices must be integers; index {k} is {index.type}", IndexError)
            extent, stride = _extent(base.code, t, k), _stride(base.code, t, k)
            position = index.code if index.nonnegative else f"gk_py_wrap({index.code}, {extent})"
            if index32:  # an index in bounds fits, and so does its offset
                position, stride = f"(int)({position})", f"(int){stride}"
            terms.append(f"({position}) * {stride}" if stride not in ("1ll", "(int)1ll") else f"({position})")
        return f"{base.code}[{' + '.join(terms) or '0'}]", t

    def _expr_Tuple(self, node):
        values = [self.rvalue(e) for e in node.elts]
        for value, element in zip(values, node.elts):
            if not isinstance(value.type, Scalar):
                raise self.error(element, "tuples in kernels hold numbers")
        return tuple_value([v.code for v in values], [v.type for v in values], all(v.nonnegative for v in values))

    def _expr_UnaryOp(self, node):
        value = self.rvalue(node.operand)
        t = value.type
        if not isinstance(t, Scalar):
            raise self.error(node, f"bad operand {t} for a unary operator")
        if isinstance(node.op, ast.Not):
            return Value(f"(!{self.condition(node.operand)})", BOOL)
        if isinstance(node.op, ast.UAdd):
            return value
        if isinstance(node.op, ast.USub):
            result = INT64 if t.kind == "b" else t
            if t.dtype == HALF:
                return Value(f"((__half)(-{self.cast(value, FLOAT32)}))", t)
            return Value(f"(({_c(result.dtype)})(-{self.cast(value, result)}))", result)
        if isinstance(node.op, ast.Invert):
            if t.kind == "b":
                return Value(f"(!{value.code})", t)
            if t.kind in "fc":
                raise self.error(node, f"~ takes integers or bools, not {t}")
            return Value(f"(({_c(t.dtype)})(~{value.code}))", t)
        raise self.unsupported(node)

    def _expr_BinOp(self, node):
        return self.binary(node, node.op, self.rvalue(node.left), self.rvalue(node.right))

    def binary(self, node, op, left, right):
        result = self.arithmetic(node, op, left, right)
        # Sums, products, quotients, remainders and bit operations of values >= 0 are >= 0 (Python's %
        # takes the divisor's sign); a difference may not be.
        if left.nonnegative and right.nonnegative and not isinstance(op, ast.Sub):
            result.nonnegative = True
        return result

    def arithmetic(self, node, op, left, right):
        if not (isinstance(left.type, Scalar) and isinstance(right.type, Scalar)):
            raise self.error(node, f"unsupported operand types for {_op_symbol(op)}: {left.type} and {right.type}")
        t = promote(left.type, right.type)
        if t.dtype == HALF:  # computed in float32 and rounded once to float16, as NumPy does
            in_float = self.arithmetic(node, op, Value(self.cast(left, FLOAT32), FLOAT32),
                                       Value(self.cast(right, FLOAT32), FLOAT32))
            return Value(f"((__half)({in_float.code}))", t)
        if t.kind == "c":
            if isinstance(op, ast.Pow):
                return Value(f"gk_py_cpow({self.cast(left, t)}, {self.cast(right, t)})", t)
            if not isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
                raise self.error(node, f"{_op_symbol(op)} does not take complex numbers ({left.type} and "
                                 f"{right.type})")
            return Value(f"({self.cast(left, t)} {_op_symbol(op)} {self.cast(right, t)})", t)
        if isinstance(op, ast.Div):
            if t.kind != "f":
                t = FLOAT64 if not (left.type.weak and right.type.weak) else Scalar(FLOAT64.dtype, weak=True)
            return Value(f"({self.cast(left, t)} / {self.cast(right, t)})", t)
        if isinstance(op, ast.Pow):
            if t.kind == "f":
                function = "powf" if t.dtype.itemsize == 4 else "pow"
                return Value(f"(({_c(t.dtype)}){function}({self.cast(left, t)}, {self.cast(right, t)}))", t)
            if t.kind == "b":
                t = INT64
            return Value(f"gk_py_ipow<{_c(t.dtype)}>({self.cast(left, t)}, {self.cast(right, t)})", t)
        if isinstance(op, (ast.Add, ast.Sub, ast.Mult)) and t.kind == "b":
            if isinstance(op, ast.Sub):
                raise self.error(node, "numpy boolean subtract, the `-` operator, is not supported")
            symbol = "||" if isinstance(op, ast.Add) else "&&"
            return Value(f"({self.cast(left, t)} {symbol} {self.cast(right, t)})", t)
        if isinstance(op, ast.FloorDiv):
            if t.kind == "b":
                t = Scalar(numpy.dtype(numpy.int8))
            if t.kind == "f":
                function = "floorf" if t.dtype.itemsize == 4 else "floor"
                return Value(f"{function}({self.cast(left, t)} / {self.cast(right, t)})", t)
            return Value(f"gk_py_floordiv<{_c(t.dtype)}>({self.cast(left, t)}, {self.cast(right, t)})", t)
        if isinstance(op, ast.Mod):
            if t.kind == "b":
                t = Scalar(numpy.dtype(numpy.int8))
            helper = "gk_py_fmod" if t.kind == "f" else "gk_py_mod"
            return Value(f"{helper}<{_c(t.dtype)}>({self.cast(left, t)}, {self.cast(right, t)})", t)
        symbol = C_OPERATORS.get(type(op))
        if symbol is None:
            raise self.unsupported(node, f"the operator {_op_symbol(op)}")
        if symbol in ("&", "|", "^", "<<", ">>") and t.kind == "f":
            raise self.error(node, f"{symbol} takes integers or bools, not {left.type} and {right.type}")
        if t.kind == "b" and symbol in ("<<", ">>"):
            t = INT64
        return Value(f"(({_c(t.dtype)})({self.cast(left, t)} {symbol} {self.cast(right, t)}))", t)

    def _expr_BoolOp(self, node):
        symbol = "&&" if isinstance(node.op, ast.And) else "||"
        return Value("(" + f" {symbol} ".join(self.condition(v) for v in node.values) + ")", BOOL)

    def _expr_Compare(self, node):
        symbols = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
        parts = []
        left = self.rvalue(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.rvalue(right_node)
            symbol = symbols.get(type(op))
            if symbol is None:
                raise self.unsupported(node, f"the comparison {type(op).__name__}")
            if not (isinstance(left.type, Scalar) and isinstance(right.type, Scalar)):
                raise self.error(node, f"cannot compare {left.type} and {right.type}")
            t = promote(left.type, right.type)
            if t.kind == "c" and symbol not in ("==", "!="):
                raise self.error(node, f"complex numbers are not ordered: {symbol} takes real numbers, not {t}")
            if t.dtype == HALF:
                t = FLOAT32  # compared as float32, exactly
            if t.kind in "iu" and (left.type.weak or right.type.weak) and t.dtype.itemsize < 8:
                # A Python int (a shape, a literal) compares by value: r < m.shape[0] must not
                # narrow the shape to r's int32.
                t = INT64  # holds both: the other is narrower, a Python int is int64
            parts.append(f"({self.cast(left, t)} {symbol} {self.cast(right, t)})")
            left = right
        return Value("(" + " && ".join(parts) + ")", BOOL)

    def _expr_IfExp(self, node):
        a, b = self.rvalue(node.body), self.rvalue(node.orelse)
        t = unify(a.type, b.type)
        if not isinstance(t, Scalar):
            raise self.error(node, f"the two values of a conditional expression are {a.type} and {b.type}")
        return Value(f"({self.condition(node.test)} ? {self.cast(a, t)} : {self.cast(b, t)})", t)

    # ---- calls

    def _expr_Call(self, node):
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("conjugate", "conj") and not node.args:
            value = self.rvalue(node.func.value)  # z.conjugate(), as Python's and NumPy's numbers have
            if isinstance(value, Value) and isinstance(value.type, Scalar):
                return Value(f"gk_py_conj({value.code})", value.type) if value.type.kind == "c" else value
        callee = self.expr(node.func)
        if not isinstance(callee, Known):
            raise self.error(node, f"{ast.unparse(node.func)} is not callable in a kernel")
        function = callee.obj
        if node.keywords and function not in (intrinsics.shared.array, intrinsics.local.array):
            raise self.error(node, f"{ast.unparse(node.func)}() takes no keyword arguments in a kernel")
        if isinstance(function, intrinsics.Intrinsic):
            return self.intrinsic(node, function)
        args = [self.rvalue(a) for a in node.args]
        name = getattr(function, "__name__", None)
        module = getattr(function, "__module__", None) or ""
        if function in (int, float, bool) or (isinstance(function, type) and issubclass(function, numpy.generic)):
            return self.conversion(node, function, args)
        if function is len:
            if len(args) != 1 or not isinstance(args[0].type, (Array, StaticArray, Tuple)):
                raise self.error(node, "len() takes one array or tuple in a kernel")
            t = args[0].type
            if isinstance(t, Tuple):
                return Value(f"{len(t.items)}ll", WEAK_INT, nonnegative=True)
            if t.ndim == 0:
                raise self.error(node, "len() of a 0-d array", TypeError)
            return Value(_extent(args[0].code, t, 0), WEAK_INT, nonnegative=True)
        if function in (abs, min, max):
            return self.builtin_minmax(node, function.__name__, args)
        if getattr(function, "_gpukit_device_function", None) is not None:
            return self.device_call(node, function._gpukit_device_function, args)
        if module in ("math", "cmath", "numpy") or (isinstance(function, numpy.ufunc)):
            return self.math_call(node, name, args, module if module in ("math", "cmath") else "numpy")
        if function is complex:
            return self.complex_call(node, args)
        if dtype_of(function) is not None and hasattr(function, "name"):  # numba.float32(x)
            return self.conversion(node, function, args)
        raise self.unsupported(node, f"calling {ast.unparse(node.func)}")

    def device_call(self, node, function, args):
        if function in self.callers:
            raise self.error(node, f"{function.__qualname__} calls itself (directly or through other functions): "
                             "recursion is not supported in kernels")
        args = [self.view(node, a, []) if isinstance(a.type, StaticArray) else a for a in args]
        types = tuple(strong(a.type) for a in args)
        key = (function, types)
        callee = self.callees.get(key)
        if callee is None:
            callee = self.callees[key] = KernelSource(function, types, device=True, callers=self.callers)
        pieces = []
        for arg, t in zip(args, types):
            if isinstance(t, Array):
                pieces.extend([arg.code] + [_extent(arg.code, t, k) for k in range(t.ndim)]
                              + [_stride(arg.code, t, k) for k in range(t.ndim)])
            elif isinstance(t, Tuple):
                pieces.extend(self.cast(Value(item, given), item_type)
                              for item, given, item_type in zip(arg.items, arg.type.items, t.items))
            else:
                pieces.append(self.cast(arg, t))
        return Value(f"{callee.name}({', '.join(pieces)})", callee.return_type)

    def conversion(self, node, function, args):
        if len(args) != 1 or not isinstance(args[0].type, Scalar):
            raise self.error(node, f"{ast.unparse(node.func)}() takes one number")
        t = Scalar(dtype_of(function))
        if function is bool or t.kind == "b":
            return Value(f"(({self.cast(args[0], FLOAT32) if args[0].type.dtype == HALF else args[0].code}) != 0)",
                         BOOL)
        return Value(self.cast(args[0], t), t)

    def builtin_minmax(self, node, name, args):
        if name == "abs":
            if len(args) != 1:
                raise self.error(node, "abs() takes one number")
            t = args[0].type
            if t.kind == "c":
                return Value(f"gk_py_cabs({args[0].code})", _complex_part(t))
            if t.dtype == HALF:
                return Value(f"((__half)fabsf({self.cast(args[0], FLOAT32)}))", t)
            if t.kind == "f":
                return Value(f"{'fabsf' if t.dtype.itemsize == 4 else 'fabs'}({args[0].code})", t)
            if t.kind == "u" or t.kind == "b":
                return args[0]
            return Value(f"(({_c(t.dtype)})(({args[0].code}) < 0 ? -({args[0].code}) : ({args[0].code})))", t)
        if len(args) < 2:
            raise self.error(node, f"{name}() in a kernel takes two or more numbers")
        result = args[0]
        for arg in args[1:]:
            t = promote(result.type, arg.type)
            if t.kind == "c":
                raise self.error(node, f"{name}() of complex numbers: they are not ordered")
            symbol = "<" if name == "min" else ">"
            a, b = self.cast(result, t), self.cast(arg, t)
            if t.dtype == HALF:  # compared as float32
                fa, fb = self.cast(Value(a, t), FLOAT32), self.cast(Value(b, t), FLOAT32)
                result = Value(f"(({fb}) {symbol} ({fa}) ? ({b}) : ({a}))", t)
            else:
                result = Value(f"(({b}) {symbol} ({a}) ? ({b}) : ({a}))", t)
        return result

    def math_call(self, node, name, args, module):
        for arg in args:
            if not isinstance(arg.type, Scalar):
                raise self.error(node, f"{name}() takes numbers, not {arg.type}")
        if name in MATH_CONSTANTS:
            raise self.error(node, f"{name} is a constant, not a function")
        if module == "cmath" or any(a.type.kind == "c" for a in args):
            return self.complex_math_call(node, name, args, module)
        if name in ("isnan", "isinf", "isfinite") and len(args) == 1:
            t = args[0].type
            if t.kind != "f":
                return Value("true" if name == "isfinite" else "false", BOOL)
            return Value(f"gk_py_{name}({self.cast(args[0], FLOAT32) if t.dtype == HALF else args[0].code})", BOOL)
        if name in ROUNDING and len(args) == 1:
            t = args[0].type
            if t.kind != "f":
                return args[0]
            function = ROUNDING[name][t.dtype.itemsize == 8]
            result = INT64 if module == "math" else t  # math.floor gives an int, numpy.floor a float
            operand = self.cast(args[0], FLOAT32) if t.dtype == HALF else args[0].code
            return Value(f"(({_c(result.dtype)}){function}({operand}))", result)
        table = FLOAT_FUNCTIONS if len(args) == 1 else FLOAT_FUNCTIONS_2 if len(args) == 2 else {}
        if name not in table:
            raise self.unsupported(node, f"{ast.unparse(node.func)}() with {len(args)} argument"
                                   f"{'s' if len(args) != 1 else ''}")
        t = args[0].type if len(args) == 1 else promote(args[0].type, args[1].type)
        if t.kind != "f":
            t = FLOAT64
        elif t.weak:
            t = FLOAT64
        function = table[name][t.dtype.itemsize == 8]
        if t.dtype == HALF:  # NumPy computes float16 functions in float32 and rounds once
            return Value(f"((__half){function}({', '.join(self.cast(a, FLOAT32) for a in args)}))", t)
        return Value(f"{function}({', '.join(self.cast(a, t) for a in args)})", t)

    def complex_math_call(self, node, name, args, module):
        """cmath's functions, and numpy's of complex numbers (math's take real numbers only)."""
        if module == "math":
            raise self.error(node, f"math.{name}() takes real numbers: use cmath.{name} or numpy.{name} for complex "
                             "ones")
        if len(args) != 1:
            raise self.unsupported(node, f"{module}.{name}() of complex numbers with {len(args)} arguments")
        value = args[0]
        t = value.type
        if t.kind != "c":  # cmath of a real number: a complex result, of the float's width
            t = Scalar(numpy.dtype(numpy.complex64 if t.dtype in (FLOAT32.dtype, HALF) else numpy.complex128))
        z = self.cast(value, t)
        if name in ("absolute", "abs"):
            return Value(f"gk_py_cabs({z})", _complex_part(t))
        if name in ("real", "imag"):
            return Value(f"({z}).{name[:2]}", _complex_part(t))
        if name == "phase" or name == "angle":
            return Value(f"atan2(({z}).im, ({z}).re)", _complex_part(t))
        function = COMPLEX_FUNCTIONS.get(name)
        if function is None:
            raise self.unsupported(node, f"{module}.{name}() of complex numbers")
        return Value(f"{function}({z})", t)

    def complex_call(self, node, args):
        """complex(re) and complex(re, im), as Python's: a complex128."""
        if not 1 <= len(args) <= 2 or not all(isinstance(a.type, Scalar) for a in args):
            raise self.error(node, "complex() takes one or two numbers")
        if len(args) == 1:
            return Value(self.cast(args[0], COMPLEX128), COMPLEX128)
        if any(a.type.kind == "c" for a in args):
            raise self.error(node, "complex(re, im) takes two real numbers in a kernel")
        return Value(f"gk_py_complex<double>{{{self.cast(args[0], FLOAT64)}, {self.cast(args[1], FLOAT64)}}}",
                     COMPLEX128)

    def intrinsic(self, node, function):
        name = function.name
        args = [self.expr(a) for a in node.args]
        if name in ("grid", "gridsize"):
            ndim = _constant_int(node.args[0]) if len(node.args) == 1 else None
            if ndim not in (1, 2, 3):
                raise self.error(node, f"cuda.{name}() takes the number of dimensions, 1, 2 or 3, as a constant")
            axes = "xyz"[:ndim]
            if name == "grid":
                items = [f"((long long)blockIdx.{a} * blockDim.{a} + threadIdx.{a})" for a in axes]
            else:
                items = [f"((long long)blockDim.{a} * gridDim.{a})" for a in axes]
            if ndim == 1:
                return Value(items[0], INT64, nonnegative=True)
            return tuple_value(items, (INT64,) * ndim, True)
        if name == "syncthreads":
            return Value("__syncthreads()", None) if not args else _fail_args(self, node, name)
        if name in ("syncthreads_count", "syncthreads_and", "syncthreads_or"):
            predicate = self.condition(node.args[0]) if len(node.args) == 1 else _fail_args(self, node, name)
            c_name = {"syncthreads_count": "__syncthreads_count", "syncthreads_and": "__syncthreads_and",
                      "syncthreads_or": "__syncthreads_or"}[name]
            return Value(f"{c_name}({predicate})", INT32)
        if name == "syncwarp":
            mask = self.rvalue(node.args[0]).code if node.args else "0xffffffffu"
            return Value(f"__syncwarp((unsigned)({mask}))", None)
        if name in ("threadfence", "threadfence_block"):
            return Value(f"__{name}()", None)
        if name == "const.array_like":
            return self.constant_array(node)
        if name in ("shared.array", "local.array"):
            return self.static_array(node, name.split(".")[0])
        if name.startswith("atomic."):
            return self.atomic(node, name.split(".")[1])
        return self.warp_or_bit_intrinsic(node, name)

    def warp_or_bit_intrinsic(self, node, name):
        counts = {"shfl_sync": 3, "shfl_up_sync": 3, "shfl_down_sync": 3, "shfl_xor_sync": 3, "all_sync": 2,
                  "any_sync": 2, "eq_sync": 2, "ballot_sync": 2, "activemask": 0, "lanemask_lt": 0, "popc": 1,
                  "clz": 1, "ffs": 1, "brev": 1, "fma": 3, "selp": 3}
        if name not in counts:
            raise self.unsupported(node, f"cuda.{name}()")
        if len(node.args) != counts[name]:
            raise self.error(node, f"cuda.{name}() takes {counts[name]} argument{'s' if counts[name] != 1 else ''}")
        if name == "activemask":
            return Value("__activemask()", UINT32)
        if name == "lanemask_lt":
            return Value(f"((1u << {LANE}) - 1u)", UINT32)
        if name == "selp":
            a, b = self.rvalue(node.args[1]), self.rvalue(node.args[2])
            t = strong(promote(a.type, b.type))
            return Value(f"({self.condition(node.args[0])} ? {self.cast(a, t)} : {self.cast(b, t)})", t)
        if name == "fma":
            values = [self.rvalue(a) for a in node.args]
            t = strong(promote(promote(values[0].type, values[1].type), values[2].type))
            if t.kind != "f":
                raise self.error(node, "cuda.fma() takes floating-point numbers")
            function = "fmaf" if t.dtype.itemsize == 4 else "fma"
            return Value(f"{function}({', '.join(self.cast(v, t) for v in values)})", t)
        if name in ("popc", "clz", "ffs", "brev"):
            value = self.rvalue(node.args[0])
            t = strong(value.type)
            if t.kind not in "iu":
                raise self.error(node, f"cuda.{name}() takes an integer, not {value.type}")
            wide = t.dtype.itemsize == 8
            argument = f"(unsigned long long)({value.code})" if wide else f"(unsigned)({value.code})"
            if name == "brev":
                result = Scalar(numpy.dtype(numpy.uint64 if wide else numpy.uint32))
                return Value(f"__brev{'ll' if wide else ''}({argument})", result)
            if name == "popc":
                return Value(f"__popc{'ll' if wide else ''}({argument})", INT32)
            signed = f"(long long)({value.code})" if wide else f"(int)({value.code})"
            return Value(f"__{name}{'ll' if wide else ''}({signed})", INT32)
        mask = f"(unsigned)({self.rvalue(node.args[0]).code})"
        if name in ("all_sync", "any_sync", "ballot_sync", "eq_sync"):
            predicate = self.condition(node.args[1])
            if name == "ballot_sync":
                return Value(f"__ballot_sync({mask}, {predicate})", UINT32)
            if name == "eq_sync":
                return Value(f"(__all_sync({mask}, {predicate}) || !__any_sync({mask}, {predicate}))", BOOL)
            return Value(f"(__{name}({mask}, {predicate}) != 0)", BOOL)
        value = self.rvalue(node.args[1])
        t = strong(value.type)
        if t.kind == "b":
            t = INT32
        if t.dtype.itemsize < 4:
            t = INT32 if t.kind == "i" else UINT32
        lane = self.rvalue(node.args[2])
        return Value(f"__{name}({mask}, {self.cast(value, t)}, (int)({lane.code}))", t)
        raise self.unsupported(node, f"cuda.{name}()")

    def static_array(self, node, space):
        given = dict(zip(("shape", "dtype"), node.args))
        for keyword in node.keywords:
            if keyword.arg not in ("shape", "dtype") or keyword.arg in given:
                raise self.error(node, f"cuda.{space}.array takes shape and dtype")
            given[keyword.arg] = keyword.value
        if set(given) != {"shape", "dtype"}:
            raise self.error(node, f"cuda.{space}.array needs shape and dtype")
        shape = self.constant(given["shape"])
        shape = shape if isinstance(shape, tuple) else (shape,)
        if not all(isinstance(extent, int) and not isinstance(extent, bool) and extent >= 0 for extent in shape):
            raise self.error(node, f"the shape of cuda.{space}.array must be a constant: an int or a tuple of ints "
                             f"known when the kernel is compiled, not {ast.unparse(given['shape'])}")
        if space == "local" and math.prod(shape) == 0:
            raise self.error(node, "a local array needs a size above 0")
        dtype_value = self.expr(given["dtype"])
        dtype = dtype_of(dtype_value.obj) if isinstance(dtype_value, Known) else None
        if dtype is None:
            raise self.error(node, f"cuda.{space}.array: {ast.unparse(given['dtype'])} is not a dtype a kernel has")
        if space == "shared" and math.prod(shape) == 0:
            if shape != (0,):
                raise self.error(node, f"a dynamic shared array (size 0: its bytes come with the launch) is "
                                 f"one-dimensional; shape {shape} is not")
            if self.device:
                raise self.error(node, "a dynamic shared array is declared in the kernel, which can pass it (or "
                                 "a slice of it) to device functions")
            self.uses_dynamic_shared = True
        return Value("", StaticArray(dtype, tuple(shape), space))

    def constant_array(self, node):
        """cuda.const.array_like(host_array): the values of a host array known when the kernel compiles,
        in constant memory (Numba's; at most 64 KiB)."""
        if len(node.args) != 1:
            raise self.error(node, "cuda.const.array_like takes one host array")
        known = self.expr(node.args[0])
        host = known.obj if isinstance(known, Known) else None
        if not isinstance(host, numpy.ndarray) or dtype_of(host.dtype) is None:
            raise self.error(node, f"cuda.const.array_like takes a NumPy array the kernel names as a global or "
                             f"closure variable, not {ast.unparse(node.args[0])}")
        if host.nbytes > 65536:
            raise self.error(node, f"cuda.const.array_like: {host.nbytes} bytes exceed constant memory's 64 KiB")
        values = tuple(host.ravel().tolist())
        return Value("", StaticArray(numpy.dtype(host.dtype), tuple(host.shape), "const", values))

    def constant(self, node):
        """A compile-time constant: a literal, a global, or a tuple of them; None when it is not one."""
        if isinstance(node, ast.Tuple):
            return tuple(self.constant(e) for e in node.elts)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name) and node.id not in self.arg_types and node.id not in self.variables:
            value = self.names.get(node.id)
            return value if isinstance(value, (int, float, tuple)) else None
        if isinstance(node, ast.BinOp):
            left, right = self.constant(node.left), self.constant(node.right)
            if isinstance(left, int) and isinstance(right, int):
                operations = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
                              ast.FloorDiv: lambda a, b: a // b if b else None}
                operation = operations.get(type(node.op))
                return operation(left, right) if operation else None
        return None

    def atomic(self, node, operation):
        if operation == "cas":
            if len(node.args) != 4:
                raise self.error(node, "cuda.atomic.cas takes (array, index, expected, value)")
        elif len(node.args) != 3:
            raise self.error(node, f"cuda.atomic.{operation} takes (array, index, value)")
        fake = ast.Subscript(value=node.args[0], slice=node.args[1], ctx=ast.Load(), lineno=node.lineno)
        element, t = self.element(fake)
        element_type = Scalar(t.dtype)
        values = [self.cast(self.rvalue(a), element_type) for a in node.args[2:]]
        c_type = _c(t.dtype)
        supported = {"int32", "uint32", "int64", "uint64", "float32", "float64"}
        if t.dtype.name not in supported:
            raise self.error(node, f"cuda.atomic.{operation} on {t.dtype.name} elements; it takes "
                             f"{', '.join(sorted(supported))}")
        pointer = f"&{element}"
        if t.dtype.name == "int64" and operation in ("add", "sub", "exch", "cas", "and_", "or_", "xor"):
            pointer, c_type = f"(unsigned long long*)&{element}", "unsigned long long"
            values = [f"(unsigned long long)({v})" for v in values]
        if operation in ("add", "sub"):
            value = values[0] if operation == "add" else f"-({values[0]})"
            if operation == "sub" and element_type.kind == "u":
                value = f"(({c_type})0 - ({values[0]}))"
            return Value(f"(({_c(t.dtype)})atomicAdd({pointer}, ({c_type})({value})))", element_type)
        if operation in ("max", "min"):
            if element_type.kind == "f":
                maximum = "true" if operation == "max" else "false"
                return Value(f"gk_py_atomic_float({pointer}, {values[0]}, {maximum})", element_type)
            return Value(f"atomic{operation.capitalize()}({pointer}, {values[0]})", element_type)
        if operation == "exch":
            return Value(f"(({_c(t.dtype)})atomicExch({pointer}, ({c_type})({values[0]})))", element_type)
        if operation == "cas":
            return Value(f"(({_c(t.dtype)})atomicCAS({pointer}, ({c_type})({values[0]}), ({c_type})({values[1]})))",
                         element_type)
        c_function = {"and_": "atomicAnd", "or_": "atomicOr", "xor": "atomicXor"}[operation]
        if element_type.kind == "f":
            raise self.error(node, f"cuda.atomic.{operation} takes integer elements")
        return Value(f"(({_c(t.dtype)}){c_function}({pointer}, ({c_type})({values[0]})))", element_type)


C_ALIGNED = "__align__(16)"
# The lane of the calling thread: its linear index in the block, modulo the warp (2-D and 3-D blocks too).
LANE = "((int)(((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % 32))"
UINT32 = Scalar(numpy.dtype(numpy.uint32))


class _NotYet(Exception):
    """A name read before its first assignment in program order, during inference."""


def _fail(translator, node, name, old, new):
    raise translator.error(node, f"variable {name!r} holds {old} and cannot also hold {new}")


def _fail_args(translator, node, name):
    raise translator.error(node, f"wrong arguments for cuda.{name}()")


def _complex_part(t):
    """The real type of a complex type's parts: float32 for complex64, float64 for complex128."""
    return Scalar(numpy.dtype(numpy.float32 if t.dtype.itemsize == 8 else numpy.float64))


def _c(dtype):
    return C_NAMES[numpy.dtype(dtype)]


def _constant_int(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant_int(node.operand)
        return None if inner is None else -inner
    return None


def _extent(code, t, k):
    if isinstance(t, StaticArray) and t.space == "shared" and t.shape == (0,):
        # A dynamic shared array holds the launch's dynamic shared bytes (Numba's shape too).
        return f"(gk_dynamic_shared_bytes / (long long)sizeof({_c(t.dtype)}))"
    if isinstance(t, StaticArray):
        return f"{t.shape[k]}ll"
    return f"{code}_shape{k}"


def _stride(code, t, k):
    if isinstance(t, StaticArray):
        return f"{math.prod(t.shape[k + 1:])}ll"
    if t.contiguous and k == t.ndim - 1:
        return "1ll"
    return f"{code}_stride{k}"


def _type_tag(t):
    """A short C-identifier spelling of a type, for naming one device function per signature."""
    if isinstance(t, Array):
        return f"a{t.ndim}{t.dtype.name}{'c' if t.contiguous else 's'}{'i' if t.index32 else ''}"
    if isinstance(t, Tuple):
        return "t" + "".join(_type_tag(item) for item in t.items) + "e"
    return t.dtype.name


def _params_of(name, t):
    c_name = c_identifier(name)
    if isinstance(t, Array):
        return ([f"{_c(t.dtype)}* {c_name}"] + [f"long long {c_name}_shape{k}" for k in range(t.ndim)]
                + [f"long long {c_name}_stride{k}" for k in range(t.ndim)])
    if isinstance(t, Tuple):
        return [f"{_c(item.dtype)} {c_name}_{k}" for k, item in enumerate(t.items)]
    return [f"{_c(t.dtype)} {c_name}"]


def _declare(name, t):
    if isinstance(t, Array):
        c_name = c_identifier(name)
        return ([f"    {_c(t.dtype)}* {c_name} = nullptr;"]
                + [f"    long long {c_name}_{part}{k} = 0;" for part in ("shape", "stride") for k in range(t.ndim)])
    if isinstance(t, Tuple):
        return [f"    {_c(item.dtype)} {c_identifier(name)}_{k} = 0;" for k, item in enumerate(t.items)]
    zero = "((__half)(0.0f))" if t.dtype == HALF else "{}" if t.kind == "c" else "0"
    return [f"    {_c(t.dtype)} {c_identifier(name)} = {zero};"]


# Operators C spells as Python does; the others (/, //, %, **) are translated on their own.
C_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
               ast.LShift: "<<", ast.RShift: ">>"}
PYTHON_ONLY_OPERATORS = {ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@"}


def _op_symbol(op):
    return {**C_OPERATORS, **PYTHON_ONLY_OPERATORS}.get(type(op), type(op).__name__)


def _cuda_module():
    from .. import cuda
    return cuda


def _closure(function):
    cells = function.__closure__ or ()
    names = {}
    for name, cell in zip(function.__code__.co_freevars, cells):
        try:
            names[name] = cell.cell_contents
        except ValueError:
            pass
    return names
