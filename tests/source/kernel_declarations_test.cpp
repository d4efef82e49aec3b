// tests/source/kernel_declarations_test.cpp: reading kernels, their parameter names and types from CUDA C source.
#include "source/kernel_declarations.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "course/course_kernels.hpp"

namespace gpukit::detail {
// Lets GoogleTest print parameters in failure messages.
void PrintTo(const DeclaredParam& param, std::ostream* out) {
    *out << "(\"" << param.type << "\", \"" << param.name << "\")";
}
}  // namespace gpukit::detail

namespace {

using gpukit::detail::declared_kernel_names;
using gpukit::detail::declared_kernels;
using gpukit::detail::DeclaredParam;
using gpukit::detail::parse_kernel_params;
using Params = std::vector<DeclaredParam>;
using Names = std::vector<std::string>;

// The course's first kernel, verbatim.
constexpr std::string_view kVectorAdd = gpukit::course::vector_add_verbatim_source;

// A module as a course exercise would write it: several kernels, helpers, a namespace.
constexpr std::string_view kModule = R"cuda(
#include <cuda_fp16.h>
#define BLOCK 256

// Helper with the same name prefix as a kernel.
__device__ float scale_value(float x, float s) { return x * s; }

extern "C" __global__ void scale(float* data, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = scale_value(data[i], s);
}

template <typename T>
__global__ void __launch_bounds__(BLOCK) reduce_sum(const T* __restrict__ in, T* out, unsigned int n)
{
    __shared__ T tile[BLOCK];
    const char* label = "__global__ void fake(int x)";  // not a kernel
    char brace = '{';
    (void)label; (void)brace;
    tile[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : T(0);
}

namespace filters {
__global__ void blur(const unsigned char* src, unsigned char* dst, int width, int height) {}
}  // namespace filters

__global__ void scale2(double* data, int n) {}
)cuda";

std::optional<Params> params_of(std::string_view source, std::string_view name) {
    return parse_kernel_params(source, name);
}

TEST(KernelDeclarations, CourseVectorAdd) {
    EXPECT_EQ(params_of(kVectorAdd, "vector_add"),
              (Params{{"const float *", "A"}, {"const float *", "B"}, {"float *", "C"}, {"const int", "size"}}));
    EXPECT_EQ(declared_kernel_names(kVectorAdd), Names{"vector_add"});
}

TEST(KernelDeclarations, ModuleWithSeveralKernels) {
    EXPECT_EQ(declared_kernel_names(kModule), (Names{"scale", "reduce_sum", "blur", "scale2"}));
    EXPECT_EQ(params_of(kModule, "scale"), (Params{{"float *", "data"}, {"float", "s"}, {"int", "n"}}));
    EXPECT_EQ(params_of(kModule, "scale2"), (Params{{"double *", "data"}, {"int", "n"}}));
    EXPECT_EQ(params_of(kModule, "reduce_sum<float>"),
              (Params{{"const T * __restrict__", "in"}, {"T *", "out"}, {"unsigned int", "n"}}));
    EXPECT_EQ(
        params_of(kModule, "filters::blur"),
        (Params{{"const unsigned char *", "src"}, {"unsigned char *", "dst"}, {"int", "width"}, {"int", "height"}}));
    EXPECT_EQ(params_of(kModule, "blur"), params_of(kModule, "filters::blur"));
    // A __device__ function is no kernel, nor is text inside a string literal.
    EXPECT_EQ(params_of(kModule, "scale_value"), std::nullopt);
    EXPECT_EQ(params_of(kModule, "fake"), std::nullopt);
    EXPECT_EQ(params_of(kModule, "missing"), std::nullopt);
}

TEST(KernelDeclarations, NameThatIsOnlyAPrefixDoesNotMatch) {
    constexpr std::string_view source = R"(
__global__ void add2(int a, int b) {}
__device__ int add_one(int x) { return x + 1; }
__global__ void add(float x) {}
)";
    EXPECT_EQ(params_of(source, "add"), (Params{{"float", "x"}}));
    EXPECT_EQ(params_of(source, "add2"), (Params{{"int", "a"}, {"int", "b"}}));
    EXPECT_EQ(params_of(source, "ad"), std::nullopt);
    EXPECT_EQ(params_of(source, "add_one"), std::nullopt);
    EXPECT_EQ(params_of("__global__ void add2(int a) {}", "add"), std::nullopt);
}

TEST(KernelDeclarations, CommentsAnywhere) {
    constexpr std::string_view source = R"(
// __global__ void commented_out(int x) {}
/* __global__ void also_commented_out(int y) {} */
__global__ /* why */ void /* not */ k( // first
    const float* A, /* the input, (with parens), and commas */
    float* /* out */ B, // the output )
    int n /* count */ )
{
}
)";
    EXPECT_EQ(params_of(source, "k"), (Params{{"const float *", "A"}, {"float *", "B"}, {"int", "n"}}));
    EXPECT_EQ(declared_kernel_names(source), Names{"k"});
}

TEST(KernelDeclarations, StringAndCharLiterals) {
    constexpr std::string_view source = R"src(
__device__ const char* text = "__global__ void fake(int x) { ) ( } ";
__device__ const char* raw = R"x( )" __global__ void fake2(int y) )x";
__global__ void k(char c = ')', const char* s = "a, b)") { char open = '('; char brace = '{'; }
__global__ void after(int n) {}
)src";
    EXPECT_EQ(params_of(source, "k"), (Params{{"char", "c"}, {"const char *", "s"}}));
    EXPECT_EQ(params_of(source, "after"), (Params{{"int", "n"}}));
    EXPECT_EQ(declared_kernel_names(source), (Names{"k", "after"}));
}

TEST(KernelDeclarations, ExternCPrefixAndBlock) {
    constexpr std::string_view source = R"(
extern "C" __global__ void prefixed(int a) {}
extern "C" {
__global__ void in_block(float* x, int n);
__global__ void in_block(float* x, int n) {}
}
extern "C"
{
    __global__ void in_block2(double d) {}
}
)";
    EXPECT_EQ(params_of(source, "prefixed"), (Params{{"int", "a"}}));
    EXPECT_EQ(params_of(source, "in_block"), (Params{{"float *", "x"}, {"int", "n"}}));
    EXPECT_EQ(params_of(source, "in_block2"), (Params{{"double", "d"}}));
}

TEST(KernelDeclarations, TemplateKernels) {
    constexpr std::string_view source = R"(
template <typename T, int N>
__global__ void axpy(T a, const T* x, T* y, int n) {}
)";
    const Params expected{{"T", "a"}, {"const T *", "x"}, {"T *", "y"}, {"int", "n"}};
    EXPECT_EQ(params_of(source, "axpy"), expected);
    EXPECT_EQ(params_of(source, "axpy<float, 4>"), expected);
    EXPECT_EQ(params_of(source, "&axpy<float,4>"), expected);
    EXPECT_EQ(params_of(source, " axpy < double , 8 > "), expected);
}

TEST(KernelDeclarations, ExplicitSpecialisationMatchesItsArguments) {
    constexpr std::string_view source = R"(
template <typename T> __global__ void fill(T* out, T value, int n) {}
template <> __global__ void fill<bool>(unsigned char* out, bool value, int n) {}
)";
    EXPECT_EQ(params_of(source, "fill<bool>"), (Params{{"unsigned char *", "out"}, {"bool", "value"}, {"int", "n"}}));
    EXPECT_EQ(params_of(source, "fill<float>"), (Params{{"T *", "out"}, {"T", "value"}, {"int", "n"}}));
    EXPECT_EQ(params_of(source, "fill"), (Params{{"T *", "out"}, {"T", "value"}, {"int", "n"}}));
    EXPECT_EQ(declared_kernel_names(source), Names{"fill"});
}

TEST(KernelDeclarations, ExplicitInstantiationTakesTheTemplatesNames) {
    constexpr std::string_view source = R"(
template <typename T> __global__ void copy(const T* in, T* out, int n) {}
template __global__ void copy<float>(const float*, float*, int);
)";
    EXPECT_EQ(params_of(source, "copy<float>"), (Params{{"const float *", "in"}, {"float *", "out"}, {"int", "n"}}));
    EXPECT_EQ(params_of(source, "copy<int>"), (Params{{"const T *", "in"}, {"T *", "out"}, {"int", "n"}}));
}

TEST(KernelDeclarations, StaticAndInlineSpecifiers) {
    constexpr std::string_view source = R"(
static __global__ void s(int a) {}
__global__ static void s2(int b) {}
inline __global__ void i(float c) {}
static inline __global__ void si(double d) {}
)";
    EXPECT_EQ(params_of(source, "s"), (Params{{"int", "a"}}));
    EXPECT_EQ(params_of(source, "s2"), (Params{{"int", "b"}}));
    EXPECT_EQ(params_of(source, "i"), (Params{{"float", "c"}}));
    EXPECT_EQ(params_of(source, "si"), (Params{{"double", "d"}}));
}

TEST(KernelDeclarations, LaunchBounds) {
    constexpr std::string_view source = R"(
#define MAX_THREADS 512
__global__ void __launch_bounds__(256, 2) a(float* x) {}
__global__ void __launch_bounds__(MAX_THREADS) b(int* y) {}
__global__ __launch_bounds__(MAX_THREADS, 4) void c(char* z) {}
__global__ void __launch_bounds__((MAX_THREADS) / 2, (1 + 1)) d(short w) {}
)";
    EXPECT_EQ(params_of(source, "a"), (Params{{"float *", "x"}}));
    EXPECT_EQ(params_of(source, "b"), (Params{{"int *", "y"}}));
    EXPECT_EQ(params_of(source, "c"), (Params{{"char *", "z"}}));
    EXPECT_EQ(params_of(source, "d"), (Params{{"short", "w"}}));
    EXPECT_EQ(declared_kernel_names(source), (Names{"a", "b", "c", "d"}));
}

TEST(KernelDeclarations, MacroCallBeforeTheName) {
    // An unknown function-like macro between the return type and the name is skipped like __launch_bounds__.
    constexpr std::string_view source = "__global__ void MY_BOUNDS(128, 4) k(int n) {}";
    EXPECT_EQ(params_of(source, "k"), (Params{{"int", "n"}}));
    EXPECT_EQ(declared_kernel_names(source), Names{"k"});
}

TEST(KernelDeclarations, GlobalBeforeOrAfterReturnType) {
    constexpr std::string_view source = R"(
void __global__ after(int n) {}
__global__ void before(int n) {}
extern "C" void __global__ extern_after(float f) {}
)";
    EXPECT_EQ(params_of(source, "after"), (Params{{"int", "n"}}));
    EXPECT_EQ(params_of(source, "before"), (Params{{"int", "n"}}));
    EXPECT_EQ(params_of(source, "extern_after"), (Params{{"float", "f"}}));
}

TEST(KernelDeclarations, ReturnTypeAndEverythingOnTheirOwnLines) {
    constexpr std::string_view source = "__global__\nvoid\nk\n(\n\tconst\nfloat\n*\nA\t,int\n\n   n\r\n)\n{\n}\n";
    EXPECT_EQ(params_of(source, "k"), (Params{{"const float *", "A"}, {"int", "n"}}));
    EXPECT_EQ(params_of("__global__ void k(const float*A,float*B,int n){}", "k"),
              (Params{{"const float *", "A"}, {"float *", "B"}, {"int", "n"}}));
}

TEST(KernelDeclarations, QualifiersPointersReferencesAndMultiWordTypes) {
    constexpr std::string_view source = R"(
__global__ void k(const unsigned int * __restrict__ in, unsigned long long count, float*__restrict__ out,
                  const float* const p, float** pp, int& r, const double &cr, signed char c, long double ld,
                  volatile int* flag)
{}
)";
    EXPECT_EQ(params_of(source, "k"), (Params{{"const unsigned int * __restrict__", "in"},
                                              {"unsigned long long", "count"},
                                              {"float * __restrict__", "out"},
                                              {"const float * const", "p"},
                                              {"float * *", "pp"},
                                              {"int &", "r"},
                                              {"const double &", "cr"},
                                              {"signed char", "c"},
                                              {"long double", "ld"},
                                              {"volatile int *", "flag"}}));
}

TEST(KernelDeclarations, ArrayParameters) {
    constexpr std::string_view source = R"(
#define N 8
__global__ void k(float a[16], int m[4][4], float (&ref)[N], const float lut[N * 2], int open[])
{}
)";
    EXPECT_EQ(params_of(source, "k"), (Params{{"float [16]", "a"},
                                              {"int [4][4]", "m"},
                                              {"float (&)[N]", "ref"},
                                              {"const float [N * 2]", "lut"},
                                              {"int []", "open"}}));
}

TEST(KernelDeclarations, FunctionPointerParameter) {
    EXPECT_EQ(params_of("__global__ void k(void (*callback)(int, float), int n) {}", "k"),
              (Params{{"void (*)(int, float)", "callback"}, {"int", "n"}}));
}

TEST(KernelDeclarations, TemplateTypesWithCommas) {
    constexpr std::string_view source = R"(
template <typename A, typename B> struct Pair { A a; B b; };
__global__ void k(Pair<int, float> p, Triple<int, Pair<char, short>, double> t, Vec<Vec<int>> v,
                  std::array<float, 3 * 2> arr, Box<(4 > 2)> b, ns::Type<-1> neg, int last)
{}
)";
    EXPECT_EQ(params_of(source, "k"), (Params{{"Pair<int, float>", "p"},
                                              {"Triple<int, Pair<char, short>, double>", "t"},
                                              {"Vec<Vec<int>>", "v"},
                                              {"std::array<float, 3 * 2>", "arr"},
                                              {"Box<(4 > 2)>", "b"},
                                              {"ns::Type<-1>", "neg"},
                                              {"int", "last"}}));
}

TEST(KernelDeclarations, DefaultValuesAreDropped) {
    constexpr std::string_view source = R"(
__global__ void k(int n = 10, float s = scale(1, 2), Pair<int, float> p = Pair<int, float>(1, 2.0f),
                  int m = a < b ? 1 : 2, int z = (1 << 4), const char* name = "x,y")
{}
)";
    EXPECT_EQ(params_of(source, "k"), (Params{{"int", "n"},
                                              {"float", "s"},
                                              {"Pair<int, float>", "p"},
                                              {"int", "m"},
                                              {"int", "z"},
                                              {"const char *", "name"}}));
}

TEST(KernelDeclarations, EmptyAndVoidParameterLists) {
    EXPECT_EQ(params_of("__global__ void k() {}", "k"), Params{});
    EXPECT_EQ(params_of("__global__ void k(void) {}", "k"), Params{});
    EXPECT_EQ(params_of("__global__ void k( void /* nothing */ ) {}", "k"), Params{});
    EXPECT_EQ(params_of("__global__ void k(\n) {}", "k"), Params{});
    // `void *` is a parameter, not an empty list.
    EXPECT_EQ(params_of("__global__ void k(void* p) {}", "k"), (Params{{"void *", "p"}}));
}

TEST(KernelDeclarations, UnnamedParameters) {
    constexpr std::string_view source = R"(
__global__ void k(const float *, int, unsigned long long, Pair<int, float>, ns::Type, struct S, const T, float[4]);
)";
    EXPECT_EQ(params_of(source, "k"), (Params{{"const float *", ""},
                                              {"int", ""},
                                              {"unsigned long long", ""},
                                              {"Pair<int, float>", ""},
                                              {"ns::Type", ""},
                                              {"struct S", ""},
                                              {"const T", ""},
                                              {"float [4]", ""}}));
}

TEST(KernelDeclarations, PrototypeAndDefinitionAreOneKernel) {
    constexpr std::string_view source = R"(
__global__ void k(const float* __restrict__, int count);
__global__ void k(const float* in, const int) { }
)";
    // Names come from wherever they are given; types from the definition.
    EXPECT_EQ(params_of(source, "k"), (Params{{"const float *", "in"}, {"const int", "count"}}));
    EXPECT_EQ(declared_kernel_names(source), Names{"k"});
}

TEST(KernelDeclarations, OverloadsAreAmbiguous) {
    constexpr std::string_view source = R"(
__global__ void k(float* x, int n) {}
__global__ void k(double* x, int n) {}
__global__ void other(int n) {}
)";
    EXPECT_EQ(params_of(source, "k"), std::nullopt);
    EXPECT_EQ(params_of(source, "other"), (Params{{"int", "n"}}));
    EXPECT_EQ(declared_kernel_names(source), (Names{"k", "other"}));
}

TEST(KernelDeclarations, Namespaces) {
    constexpr std::string_view source = R"(
namespace ns {
__global__ void k(int a) {}
namespace inner { __global__ void deep(char c) {} }
}
namespace a::b { __global__ void nested(short s) {} }
namespace { __global__ void anonymous(long l) {} }
namespace alias_ns = ns;
__global__ void k(float b) {}
)";
    EXPECT_EQ(params_of(source, "ns::k"), (Params{{"int", "a"}}));
    EXPECT_EQ(params_of(source, "::k"), (Params{{"float", "b"}}));
    EXPECT_EQ(params_of(source, "k"), std::nullopt);  // ns::k and ::k differ
    EXPECT_EQ(params_of(source, "ns::inner::deep"), (Params{{"char", "c"}}));
    EXPECT_EQ(params_of(source, "inner::deep"), (Params{{"char", "c"}}));
    EXPECT_EQ(params_of(source, "deep"), (Params{{"char", "c"}}));
    EXPECT_EQ(params_of(source, "::deep"), std::nullopt);
    EXPECT_EQ(params_of(source, "a::b::nested"), (Params{{"short", "s"}}));
    EXPECT_EQ(params_of(source, "anonymous"), (Params{{"long", "l"}}));
    EXPECT_EQ(params_of(source, "other::k"), std::nullopt);
    EXPECT_EQ(declared_kernel_names(source), (Names{"k", "deep", "nested", "anonymous"}));
}

TEST(KernelDeclarations, MacrosAreNotExpanded) {
    constexpr std::string_view source = R"(
#define N 16
#define REAL float
#define FAKE __global__ void fake(int x) {}
#define DECLARE(T) __global__ void from_macro(T x)
__global__ void k(REAL* x, REAL y[N], int n = N)
{
    FAKE
}
)";
    EXPECT_EQ(params_of(source, "k"), (Params{{"REAL *", "x"}, {"REAL [N]", "y"}, {"int", "n"}}));
    EXPECT_EQ(declared_kernel_names(source), Names{"k"});
}

TEST(KernelDeclarations, MacroSpellingOfGlobal) {
    constexpr std::string_view source = R"(
#define KERNEL extern "C" __global__
#define BIG_KERNEL KERNEL __launch_bounds__(1024)
KERNEL void a(int x) {}
BIG_KERNEL void b(float y) {}
)";
    EXPECT_EQ(params_of(source, "a"), (Params{{"int", "x"}}));
    EXPECT_EQ(params_of(source, "b"), (Params{{"float", "y"}}));
}

TEST(KernelDeclarations, DeadPreprocessorBranches) {
    constexpr std::string_view source = R"(
#if 0
__global__ void k(double* old, int n) {}
#elif defined(USE_NEW)
__global__ void k(float* x, int n) {}
#else
__global__ void k(float* y, int n);
#endif
#if 1
__global__ void m(int kept) {}
#else
__global__ void m(char dropped) {}
#endif
)";
    // Both live branches declare the same signature; the definition's name wins.
    EXPECT_EQ(params_of(source, "k"), (Params{{"float *", "x"}, {"int", "n"}}));
    EXPECT_EQ(params_of(source, "m"), (Params{{"int", "kept"}}));
}

TEST(KernelDeclarations, AttributesAndGridConstant) {
    constexpr std::string_view source = R"(
struct Params { int n; };
__global__ void k(const __grid_constant__ Params p, int n __attribute__((unused)), [[maybe_unused]] float f) {}
)";
    EXPECT_EQ(params_of(source, "k"), (Params{{"const __grid_constant__ Params", "p"}, {"int", "n"}, {"float", "f"}}));
}

TEST(KernelDeclarations, NotFoundOrBadQuery) {
    EXPECT_EQ(params_of("", "k"), std::nullopt);
    EXPECT_EQ(params_of(kVectorAdd, ""), std::nullopt);
    EXPECT_EQ(params_of(kVectorAdd, "<float>"), std::nullopt);
    EXPECT_EQ(params_of("__device__ void k(int n) {}", "k"), std::nullopt);
    EXPECT_EQ(params_of("void k(int n) {}", "k"), std::nullopt);
    EXPECT_TRUE(declared_kernel_names("").empty());
}

TEST(KernelDeclarations, UnbalancedAndTruncatedDeclarations) {
    EXPECT_EQ(params_of("__global__ void k(int a", "k"), std::nullopt);
    EXPECT_EQ(params_of("__global__ void k(", "k"), std::nullopt);
    EXPECT_EQ(params_of("__global__ void k", "k"), std::nullopt);
    EXPECT_EQ(params_of("__global__", "k"), std::nullopt);
    EXPECT_EQ(params_of("__global__ void k(int a]", "k"), std::nullopt);
    EXPECT_EQ(params_of("__global__ void k(int a)) {", "k"), (Params{{"int", "a"}}));
    // An unclosed '<' is a comparison, so the comma still separates parameters.
    const auto unclosed_angle = params_of("__global__ void k(int a, Pair<int, float b) {}", "k");
    ASSERT_TRUE(unclosed_angle);
    ASSERT_EQ(unclosed_angle->size(), 3u);
    EXPECT_EQ(unclosed_angle->back(), (DeclaredParam{"float", "b"}));
    const auto unclosed_bracket = params_of("__global__ void k(int a[4) {}", "k");
    ASSERT_TRUE(unclosed_bracket);
    EXPECT_EQ(unclosed_bracket->size(), 1u);
    EXPECT_EQ(params_of("}}} __global__ void k(int a) {} }}}", "k"), (Params{{"int", "a"}}));
    EXPECT_EQ(params_of("__global__ void k(int a) { /* unterminated", "k"), (Params{{"int", "a"}}));
    EXPECT_EQ(params_of("__global__ void k(char c = 'x) {}", "k"), std::nullopt);
    EXPECT_EQ(params_of("__global__ void k(const char* s = \"abc) {}", "k"), std::nullopt);
}

// Every prefix of a valid module, and random slices of it, must be read without crashing or hanging.
TEST(KernelDeclarations, TruncatedSourcesNeverCrash) {
    const std::string source = std::string(kVectorAdd) + std::string(kModule);
    for (std::size_t length = 0; length <= source.size(); ++length) {
        const std::string_view prefix(source.data(), length);
        const Names names = declared_kernel_names(prefix);
        EXPECT_LE(names.size(), 5u);
        for (const std::string_view name : {"vector_add", "scale", "reduce_sum<float>", "filters::blur", "scale2"}) {
            const auto params = parse_kernel_params(prefix, name);
            if (params) {
                EXPECT_LE(params->size(), 4u);
            }
        }
    }
    std::mt19937 random(12345);
    for (int trial = 0; trial < 1000; ++trial) {
        std::uniform_int_distribution<std::size_t> position(0, source.size());
        std::size_t begin = position(random);
        std::size_t end = position(random);
        if (begin > end) std::swap(begin, end);
        const std::string_view slice(source.data() + begin, end - begin);
        (void)declared_kernel_names(slice);
        (void)parse_kernel_params(slice, "scale");
        (void)parse_kernel_params(slice, "reduce_sum<float>");
    }
    // The full source still reads correctly.
    EXPECT_EQ(declared_kernel_names(source), (Names{"vector_add", "scale", "reduce_sum", "blur", "scale2"}));
}

// Random token soup built from the pieces that drive the parser's decisions.
TEST(KernelDeclarations, RandomTokenSoupNeverCrashes) {
    const std::vector<std::string_view> pieces = {"__global__",
                                                  "void",
                                                  "k",
                                                  "ns",
                                                  "::",
                                                  "(",
                                                  ")",
                                                  "[",
                                                  "]",
                                                  "{",
                                                  "}",
                                                  "<",
                                                  ">",
                                                  ",",
                                                  ";",
                                                  "=",
                                                  "*",
                                                  "&",
                                                  "int",
                                                  "const",
                                                  "__launch_bounds__",
                                                  "template",
                                                  "namespace",
                                                  "extern",
                                                  "\"C\"",
                                                  "\"",
                                                  "'",
                                                  "/*",
                                                  "*/",
                                                  "//",
                                                  "\n",
                                                  "#if 0\n",
                                                  "#else\n",
                                                  "#endif\n",
                                                  "#define K __global__\n",
                                                  "K",
                                                  "R\"x(",
                                                  ")x\"",
                                                  "\\\n",
                                                  "...",
                                                  "1",
                                                  "[[",
                                                  "]]",
                                                  "__attribute__",
                                                  "void",
                                                  " "};
    std::mt19937 random(777);
    std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
    std::uniform_int_distribution<int> length(0, 60);
    for (int trial = 0; trial < 3000; ++trial) {
        std::string source;
        for (int n = length(random); n > 0; --n) {
            source += pieces[pick(random)];
            source += ' ';
        }
        const Names names = declared_kernel_names(source);
        for (const std::string& name : names) (void)parse_kernel_params(source, name);
        (void)parse_kernel_params(source, "k");
        (void)parse_kernel_params(source, "ns::k<int>");
    }
}

// Inputs that would make a naive scanner quadratic still finish promptly.
TEST(KernelDeclarations, PathologicalInputsFinish) {
    const auto repeat = [](std::string_view piece, int count) {
        std::string out;
        for (int i = 0; i < count; ++i) out += piece;
        return out;
    };
    (void)declared_kernel_names(repeat("(", 100000));
    (void)declared_kernel_names(repeat("__global__ ", 50000));
    (void)declared_kernel_names(repeat("__global__ k(", 25000));
    (void)declared_kernel_names(repeat("namespace ", 50000));
    (void)declared_kernel_names(repeat("{ __global__ void k(int a) {} ", 20000) + repeat("}", 20000));
    (void)parse_kernel_params("__global__ void k(" + repeat("a<", 50000) + ") {}", "k");
    (void)parse_kernel_params("__global__ void k(" + repeat("(]", 50000) + ") {}", "k");
    (void)parse_kernel_params(repeat("[", 50000) + repeat(")", 50000), "k");
    const std::string many = repeat("__global__ void k(int a) {}\n", 10000);
    EXPECT_EQ(parse_kernel_params(many, "k"), (Params{{"int", "a"}}));
}

// --- conditionals the old readers disagreed on: the unified preprocessor's answers ----------------

TEST(KernelDeclarations, ParenthesisedHexSuffixedAndFalseZeroConditionsHideTheirKernels) {
    // The old reader here took only a lone decimal (and true/false); `(0)` and `0x0` kept the kernel.
    constexpr std::string_view source = R"(
#if (0)
__global__ void parenthesised(int a) {}
#endif
#if 0x0
__global__ void hex(int a) {}
#endif
#if 0L
__global__ void suffixed(int a) {}
#endif
#if false
__global__ void literal_false(int a) {}
#endif
#if 2 - 2 || (1 && !1)
__global__ void arithmetic(int a) {}
#endif
__global__ void kept(int a) {}
)";
    EXPECT_EQ(declared_kernel_names(source), Names{"kept"});
}

TEST(KernelDeclarations, ElseAndElifAfterACertainlyTrueBranchAreDead) {
    constexpr std::string_view source = R"(
#if 1
__global__ void k(int kept) {}
#elif UNKNOWN
__global__ void k(float elif_dropped) {}
#else
__global__ void k(char else_dropped) {}
#endif
#if 0
__global__ void m(double dropped) {}
#elif 0
__global__ void m(double elif_zero_dropped) {}
#elif 1
__global__ void m(int chosen) {}
#endif
)";
    EXPECT_EQ(params_of(source, "k"), (Params{{"int", "kept"}}));
    EXPECT_EQ(params_of(source, "m"), (Params{{"int", "chosen"}}));
}

TEST(KernelDeclarations, DefinedAfterADefineInTheSameTextDecidesTheBranch) {
    // Before, `defined(...)` was unknown: both kernels were read, and the query was ambiguous.
    constexpr std::string_view source = R"(
#define USE_FLOAT
#if defined(USE_FLOAT)
__global__ void k(float* x) {}
#else
__global__ void k(double* x) {}
#endif
#ifndef USE_FLOAT
__global__ void never(int a) {}
#endif
)";
    EXPECT_EQ(params_of(source, "k"), (Params{{"float *", "x"}}));
    EXPECT_EQ(declared_kernel_names(source), Names{"k"});
}

TEST(KernelDeclarations, IfdefOfANameTheTextNeverDefinesKeepsEveryBranch) {
    // -D options and predefined macros may define it: both kernels may be compiled.
    constexpr std::string_view source = R"(
#ifdef USE_FLOAT
__global__ void k(float* x) {}
#else
__global__ void k(double* x) {}
#endif
)";
    EXPECT_EQ(params_of(source, "k"), std::nullopt);  // two parameter lists: ambiguous
    const auto kernels = declared_kernels(source);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_TRUE(kernels[0].is_overloaded);
}

TEST(KernelDeclarations, AnIncludeBetweenDefineAndTestMakesTheNameUnknownAgain) {
    constexpr std::string_view source = R"(
#define USE_FLOAT
#include "config.h"
#ifdef USE_FLOAT
__global__ void a(float* x) {}
#else
__global__ void b(double* x) {}
#endif
#undef GONE
#ifdef GONE
__global__ void c(int x) {}
#endif
)";
    EXPECT_EQ(declared_kernel_names(source), (Names{"a", "b"}));
}

TEST(KernelDeclarations, ConditionalsNestedInADeadBranchStayDead) {
    constexpr std::string_view source = R"(
#if 0
#if 1
__global__ void inner_true(int a) {}
#else
__global__ void inner_else(int a) {}
#endif
#endif
#ifdef MAYBE
#if 0
__global__ void dead_in_unknown(int a) {}
#else
__global__ void live_in_unknown(int a) {}
#endif
#endif
)";
    EXPECT_EQ(declared_kernel_names(source), Names{"live_in_unknown"});
}

TEST(KernelDeclarations, ALineSpliceInsideGlobalStillDeclaresAKernel) {
    // Read as written before, `__glo\<newline>bal__` was two words and the kernel was missed.
    EXPECT_EQ(declared_kernel_names("__glo\\\nbal__ void k(int a) {}"), Names{"k"});
    EXPECT_EQ(params_of("#if \\\n 0\n__global__ void k(int a) {}\n#endif\n", "k"), std::nullopt);
}

TEST(KernelDeclarations, AnUnterminatedConditionalHidesOnlyWhatItCertainlyExcludes) {
    EXPECT_EQ(declared_kernel_names("#if 0\n__global__ void dead(int a) {}\n"), Names{});
    EXPECT_EQ(declared_kernel_names("#ifdef X\n__global__ void maybe(int a) {}\n"), Names{"maybe"});
    EXPECT_EQ(declared_kernel_names("#endif\n#else\n__global__ void stray(int a) {}\n"), Names{"stray"});
}

}  // namespace

namespace gpukit::detail {
namespace {

TEST(DeclaredKernels, TellsTemplatesOverloadsAndScopes) {
    const std::string source = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n);
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {}
template <typename T> __global__ void axpy(T a, const T* x, T* y, int n) {}
template __global__ void axpy<float>(float, const float*, float*, int);
namespace ns { __global__ void scale(float* x) {} }
__global__ void over(int) {}
__global__ void over(float) {}
)";
    const auto kernels = declared_kernels(source);
    ASSERT_EQ(kernels.size(), 4u);
    EXPECT_EQ(kernels[0].qualified_name, "vector_add");
    EXPECT_FALSE(kernels[0].is_template);
    EXPECT_FALSE(kernels[0].is_overloaded);
    EXPECT_EQ(kernels[1].name, "axpy");
    EXPECT_TRUE(kernels[1].is_template);
    EXPECT_EQ(kernels[2].qualified_name, "ns::scale");
    EXPECT_EQ(kernels[2].name, "scale");
    EXPECT_TRUE(kernels[3].is_overloaded);
}

}  // namespace
}  // namespace gpukit::detail
