// tests/backends/sim/sync_analysis_test.cpp: deciding from source which kernels may reach a barrier.
#include "backends/sim/sync_analysis.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "course/course_kernels.hpp"

namespace {

using gpukit::detail::sim::analyse_synchronisation;
using gpukit::detail::sim::SyncAnalysis;

SyncAnalysis analyse(std::string_view source) { return analyse_synchronisation({source}); }

// The course's first kernel, verbatim.
constexpr std::string_view kVectorAdd = gpukit::course::vector_add_verbatim_source;

constexpr std::string_view kTiledMatmul = R"cuda(
#define TILE 16
extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, int n)
{
    __shared__ float tile_a[TILE][TILE];
    __shared__ float tile_b[TILE][TILE];
    const int row = blockIdx.y * TILE + threadIdx.y;
    const int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        tile_a[threadIdx.y][threadIdx.x] = (row < n && t * TILE + threadIdx.x < n) ? a[row * n + t * TILE + threadIdx.x] : 0.0f;
        tile_b[threadIdx.y][threadIdx.x] = (col < n && t * TILE + threadIdx.y < n) ? b[(t * TILE + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += tile_a[threadIdx.y][k] * tile_b[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = sum;
}
)cuda";

constexpr std::string_view kReduction = R"cuda(
extern "C" __global__ void block_sum(const float* in, float* out, int n)
{
    extern __shared__ float partial[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
)cuda";

// Helpers two levels deep, one barrier-free helper beside them, a helper defined after its caller.
constexpr std::string_view kHelpers = R"cuda(
__device__ void wait_for_block() { __syncthreads(); }
__device__ void stage(float* tile, const float* in) { tile[threadIdx.x] = in[threadIdx.x]; wait_for_block(); }
__device__ float square(float x) { return x * x; }

__device__ float load_later(const float* in);

extern "C" __global__ void two_levels(const float* in, float* out) {
    __shared__ float tile[256];
    stage(tile, in);
    out[threadIdx.x] = tile[255 - threadIdx.x];
}
extern "C" __global__ void squares(const float* in, float* out) { out[threadIdx.x] = square(in[threadIdx.x]); }
extern "C" __global__ void defined_after(const float* in, float* out) { out[threadIdx.x] = load_later(in); }

__device__ float load_later(const float* in) {
    __shared__ float copy[256];
    copy[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    return copy[255 - threadIdx.x];
}
)cuda";

TEST(SyncAnalysis, VectorAddIsBarrierFree) { EXPECT_FALSE(analyse(kVectorAdd).may_synchronise("vector_add")); }

TEST(SyncAnalysis, TiledMatmulSynchronises) { EXPECT_TRUE(analyse(kTiledMatmul).may_synchronise("matmul_tiled")); }

TEST(SyncAnalysis, ReductionWithABarrierInALoopSynchronises) {
    EXPECT_TRUE(analyse(kReduction).may_synchronise("block_sum"));
}

TEST(SyncAnalysis, FollowsHelpers) {
    const SyncAnalysis analysis = analyse(kHelpers);
    EXPECT_TRUE(analysis.may_synchronise("two_levels"));
    EXPECT_FALSE(analysis.may_synchronise("squares"));
    EXPECT_TRUE(analysis.may_synchronise("defined_after"));
}

TEST(SyncAnalysis, CourseKernelsTogether) {
    const SyncAnalysis analysis = analyse_synchronisation({kVectorAdd, kTiledMatmul, kReduction, kHelpers});
    EXPECT_FALSE(analysis.may_synchronise("vector_add"));
    EXPECT_TRUE(analysis.may_synchronise("matmul_tiled"));
    EXPECT_TRUE(analysis.may_synchronise("block_sum"));
    EXPECT_TRUE(analysis.may_synchronise("two_levels"));
    EXPECT_FALSE(analysis.may_synchronise("squares"));
}

TEST(SyncAnalysis, CourseHistograms) {
    // The course's two histograms in one module: only the shared-memory one needs fibers.
    const SyncAnalysis analysis = analyse(R"cuda(
extern "C"
__global__ void histogram(const int * input, int * output)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  atomicAdd(&(output[input[item]]), 1);
}
extern "C"
__global__ void histogram_shared(const int * input, int * output)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  __shared__ int temp_histogram[256];
  temp_histogram[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&(temp_histogram[input[item]]), 1);
  __syncthreads();
  atomicAdd(&(output[threadIdx.x]), temp_histogram[threadIdx.x]);
}
)cuda");
    EXPECT_FALSE(analysis.may_synchronise("histogram"));
    EXPECT_TRUE(analysis.may_synchronise("histogram_shared"));
}

TEST(SyncAnalysis, FollowsMacros) {
    const SyncAnalysis analysis = analyse(R"cuda(
#define SYNC() __syncthreads()
#define SYNC_TWICE() do { SYNC(); SYNC(); } while (0)
#define BARRIER \
    __syncthreads()
#define SQUARE(x) ((x) * (x))
__global__ void with_macro(float* d) { d[threadIdx.x] = 1; SYNC(); }
__global__ void with_nested_macro(float* d) { d[threadIdx.x] = 1; SYNC_TWICE(); }
__global__ void with_continued_macro(float* d) { d[threadIdx.x] = 1; BARRIER; }
__global__ void with_plain_macro(float* d) { d[threadIdx.x] = SQUARE(d[threadIdx.x]); }
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("with_macro"));
    EXPECT_TRUE(analysis.may_synchronise("with_nested_macro"));
    EXPECT_TRUE(analysis.may_synchronise("with_continued_macro"));
    EXPECT_FALSE(analysis.may_synchronise("with_plain_macro"));
}

TEST(SyncAnalysis, MacroThatDefinesAHelper) {
    // The barrier-taking overload of wait_here exists only inside the macro's expansion; the invocation
    // is a declaration of its own, not part of the kernel after it.
    const SyncAnalysis analysis = analyse(R"cuda(
#define DEFINE_WAIT(name) __device__ void name() { __syncthreads(); }
__device__ void wait_here(int spins) { while (spins-- > 0) {} }
__global__ void uses_generated(float* d) { wait_here(); d[0] = 1; }
DEFINE_WAIT(wait_here)
__global__ void plain(float* d) { d[0] = 1; }
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("uses_generated"));
    EXPECT_FALSE(analysis.may_synchronise("plain"));
}

TEST(SyncAnalysis, TokenPastedHelper) {
    // a_impl is defined nowhere the reader can see, and the macro that makes it synchronises.
    const SyncAnalysis analysis = analyse(R"cuda(
#define DEFINE_IMPL(n) __device__ void n##_impl() { __syncthreads(); }
DEFINE_IMPL(a)
__global__ void calls_pasted(float* d) { a_impl(); d[0] = 1; }
__global__ void plain(float* d) { d[0] = 1; }
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("calls_pasted"));
    EXPECT_FALSE(analysis.may_synchronise("plain"));
}

TEST(SyncAnalysis, TemplateKernelByNameExpression) {
    const SyncAnalysis analysis = analyse(R"cuda(
template <typename T, int BLOCK>
__global__ void reduce(const T* in, T* out, int n) {
    __shared__ T partial[BLOCK];
    partial[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : T(0);
    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
        __syncthreads();
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) *out = partial[0];
}
template <typename T>
__global__ void scale(T* data, T factor) { data[threadIdx.x] *= factor; }
template __global__ void reduce<float, 256>(const float*, float*, int);
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("reduce<float, 256>"));
    EXPECT_TRUE(analysis.may_synchronise("reduce"));
    EXPECT_FALSE(analysis.may_synchronise("scale<double>"));
    EXPECT_FALSE(analysis.may_synchronise("&scale<float>"));
}

TEST(SyncAnalysis, TemplateArgumentsOfTheNameExpressionCount) {
    // Guard's destructor runs inside construct<Guard> although the kernel never names Guard.
    const SyncAnalysis analysis = analyse(R"cuda(
struct Guard { __device__ ~Guard() { __syncthreads(); } };
template <typename T> __global__ void construct(float* d) { T scoped; d[threadIdx.x] = 1; }
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("construct<Guard>"));
    EXPECT_FALSE(analysis.may_synchronise("construct<int>"));
}

TEST(SyncAnalysis, WarpIntrinsicsAndCooperativeGroupsSynchronise) {
    const SyncAnalysis analysis = analyse(R"cuda(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void warp_sum(float* d) {
    float v = d[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    d[threadIdx.x] = v;
}
__global__ void active(unsigned* d) { d[threadIdx.x] = __activemask(); }
__global__ void groups(float* d) {
    cg::thread_block block = cg::this_thread_block();
    d[threadIdx.x] = 1;
    block.sync();
}
__global__ void legacy(float* d) { d[threadIdx.x] = __shfl(d[threadIdx.x], 0); }
__global__ void counted(int* d) { d[0] = __syncthreads_count(d[threadIdx.x] > 0); }
__global__ void warp_barrier(int* d) { d[threadIdx.x] = 1; __syncwarp(); }
__global__ void voted(int* d) { d[0] = __ballot_sync(0xffffffffu, d[threadIdx.x]); }
__global__ void inline_ptx(int* d) { asm volatile("bar.sync 0;"); d[0] = 1; }
__global__ void none(float* d) { d[threadIdx.x] = 0; }
)cuda");
    for (const char* kernel :
         {"warp_sum", "active", "groups", "legacy", "counted", "warp_barrier", "voted", "inline_ptx"}) {
        EXPECT_TRUE(analysis.may_synchronise(kernel)) << kernel;
    }
    EXPECT_FALSE(analysis.may_synchronise("none"));
}

TEST(SyncAnalysis, UsingNamespaceCooperativeGroups) {
    const SyncAnalysis analysis = analyse(R"cuda(
#include <cooperative_groups.h>
using namespace cooperative_groups;
__device__ void wait_on(thread_group g) { g.sync(); }
__global__ void tiled(float* d) {
    auto tile = tiled_partition<32>(this_thread_block());
    d[threadIdx.x] = tile.shfl(d[threadIdx.x], 0);
}
__global__ void through_helper(float* d) { d[0] = 1; wait_on(this_thread_block()); }
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("tiled"));
    EXPECT_TRUE(analysis.may_synchronise("through_helper"));
}

TEST(SyncAnalysis, SameBaseNameInTwoNamespaces) {
    // Each definition is judged on its own; an unqualified query answers for both (the union).
    const SyncAnalysis analysis = analyse(R"cuda(
namespace tiled { __global__ void kernel(float* d) { d[threadIdx.x] = 1; __syncthreads(); } }
namespace naive { __global__ void kernel(float* d) { d[threadIdx.x] = 1; } }
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("tiled::kernel"));
    EXPECT_FALSE(analysis.may_synchronise("naive::kernel"));
    EXPECT_TRUE(analysis.may_synchronise("kernel"));
    EXPECT_TRUE(analysis.may_synchronise("::kernel"));  // no such kernel at global scope: unknown
}

TEST(SyncAnalysis, UnknownKernelsMaySynchronise) {
    const SyncAnalysis analysis = analyse(kVectorAdd);
    EXPECT_TRUE(analysis.may_synchronise("vector_sub"));
    EXPECT_TRUE(analysis.may_synchronise(""));
    EXPECT_TRUE(analysis.may_synchronise("<>"));
    EXPECT_TRUE(SyncAnalysis{}.may_synchronise("vector_add"));
    EXPECT_TRUE(analyse_synchronisation({}).may_synchronise("vector_add"));
}

TEST(SyncAnalysis, IgnoresCommentsAndLiterals) {
    const SyncAnalysis analysis = analyse(R"cuda(
// __syncthreads() is not needed here
__device__ float documented(float x) {
    /* no __syncthreads(); */ return x; // __syncwarp();
}
__global__ void commented(float* d) {
    // __syncthreads();
    /* __syncthreads(); */
    d[threadIdx.x] = documented(d[threadIdx.x]);
}
__global__ void in_strings(char* d) {
    const char* a = "__syncthreads();";
    const char* b = R"x(__syncthreads(); ")" )x";
    const char* c = u8"__shfl_sync";
    d[0] = a[0] + b[0] + c[0] + '"';
}
__global__ void continued_comment(float* d) {
    d[0] = 1; // a comment that goes on \
    __syncthreads();
}
__global__ void after_quote_literal(float* d) { char q = '"'; d[0] = q; __syncthreads(); }
)cuda");
    EXPECT_FALSE(analysis.may_synchronise("commented"));
    EXPECT_FALSE(analysis.may_synchronise("in_strings"));
    EXPECT_FALSE(analysis.may_synchronise("continued_comment"));
    EXPECT_TRUE(analysis.may_synchronise("after_quote_literal"));
}

TEST(SyncAnalysis, IdentifierSplicedAcrossLines) {
    EXPECT_TRUE(analyse("__global__ void k(float* d) { d[0] = 1; __sync\\\nthreads(); }").may_synchronise("k"));
    EXPECT_TRUE(analyse("__global__ void k(float* d) { d[0] = 1; __sync\\\r\nthreads(); }").may_synchronise("k"));
}

TEST(SyncAnalysis, NamesMatchWhole) {
    const SyncAnalysis analysis = analyse(R"cuda(
__global__ void add_sync(float* d) { d[threadIdx.x] += 1; __syncthreads(); }
__global__ void add(float* d) { d[threadIdx.x] += 1; }
__device__ void __syncthreads_helper_like() {}
__global__ void syncthreads_in_name(float* d) { d[0] = 1; }
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("add_sync"));
    EXPECT_FALSE(analysis.may_synchronise("add"));
    EXPECT_FALSE(analysis.may_synchronise("syncthreads_in_name"));
}

TEST(SyncAnalysis, TextsSplitOverHeaderAndSource) {
    constexpr std::string_view header = R"cuda(
#pragma once
#define BLOCK_BARRIER() __syncthreads()
__device__ inline void publish(float* tile, float v) { tile[threadIdx.x] = v; BLOCK_BARRIER(); }
__device__ inline float twice(float v) { return 2 * v; }
)cuda";
    constexpr std::string_view source = R"cuda(
#include "helpers.cuh"
__global__ void shares(float* d) { __shared__ float tile[128]; publish(tile, d[threadIdx.x]); d[threadIdx.x] = tile[0]; }
__global__ void doubles(float* d) { d[threadIdx.x] = twice(d[threadIdx.x]); }
__global__ void macro_from_header(float* d) { d[0] = 1; BLOCK_BARRIER(); }
)cuda";
    const SyncAnalysis analysis = analyse_synchronisation({source, header});
    EXPECT_TRUE(analysis.may_synchronise("shares"));
    EXPECT_FALSE(analysis.may_synchronise("doubles"));
    EXPECT_TRUE(analysis.may_synchronise("macro_from_header"));
    // Without the header the helper is unknown; calling what the texts do not define is not proof of
    // anything, but with nothing synchronising in the texts no pointer can reach a barrier either.
    EXPECT_FALSE(analyse(source).may_synchronise("doubles"));
}

TEST(SyncAnalysis, PreprocessorConditionals) {
    const SyncAnalysis analysis = analyse(R"cuda(
#if 0
__global__ void dead(float* d) { __syncthreads(); }
__global__ void only_dead(float* d) { __syncthreads(); }
#endif
__global__ void dead(float* d) { d[0] = 1; }
#ifdef USE_SHARED
__global__ void configured(float* d) { __syncthreads(); }
#else
__global__ void configured(float* d) { d[0] = 1; }
#endif
#if 1
__global__ void chosen(float* d) { d[0] = 1; }
#else
__global__ void chosen(float* d) { __syncthreads(); }
#endif
#if 0
#elif defined(FAST)
__global__ void elif_branch(float* d) { __syncwarp(); }
#endif
)cuda");
    EXPECT_FALSE(analysis.may_synchronise("dead"));
    EXPECT_TRUE(analysis.may_synchronise("only_dead"));  // unknown: it is never compiled
    EXPECT_TRUE(analysis.may_synchronise("configured"));
    // The #else of `#if 1` is never compiled (source/condition.hpp): only the barrier-free definition counts.
    EXPECT_FALSE(analysis.may_synchronise("chosen"));
    EXPECT_TRUE(analysis.may_synchronise("elif_branch"));
}

TEST(SyncAnalysis, ZeroSpelledAnyWayHidesTheBarriersOfItsBranch) {
    const SyncAnalysis analysis = analyse(R"cuda(
#if (0)
__global__ void k(float* d) { __syncthreads(); }
#elif 0L
__global__ void k(float* d) { __syncwarp(); }
#elif 0x0 || !1
__global__ void k(float* d) { __syncthreads(); }
#endif
__global__ void k(float* d) { d[0] = 1; }
)cuda");
    EXPECT_FALSE(analysis.may_synchronise("k"));
}

TEST(SyncAnalysis, TheElseOfIfOneIsNeverCompiledEvenWithAnIncludeInIt) {
    // The old reader kept every #else: the include's marker made `filled` synchronising.
    const SyncAnalysis analysis = analyse(
        "__global__ void filled(float* d) {\n#if 1\n d[0] = 1;\n#else\n#include \"body.inc\"\n#endif\n}\n"
        "__global__ void dead_include(float* d) {\n#if 0\n#include \"body.inc\"\n#endif\n d[0] = 1;\n}\n"
        "__global__ void maybe_include(float* d) {\n#ifdef GENERATED\n#include \"body.inc\"\n#endif\n d[0] = 1;\n}\n");
    EXPECT_FALSE(analysis.may_synchronise("filled"));
    EXPECT_FALSE(analysis.may_synchronise("dead_include"));
    EXPECT_TRUE(analysis.may_synchronise("maybe_include"));
}

TEST(SyncAnalysis, DefinedAfterADefineDecidesWhichDefinitionIsCompiled) {
    const SyncAnalysis analysis = analyse(R"cuda(
#define NO_BARRIER
#if defined(NO_BARRIER)
__global__ void decided(float* d) { d[0] = 1; }
#else
__global__ void decided(float* d) { __syncthreads(); }
#endif
#ifdef SET_BY_A_COMPILE_OPTION
__global__ void undecided(float* d) { d[0] = 1; }
#else
__global__ void undecided(float* d) { __syncthreads(); }
#endif
)cuda");
    EXPECT_FALSE(analysis.may_synchronise("decided"));
    EXPECT_TRUE(analysis.may_synchronise("undecided"));
}

TEST(SyncAnalysis, ASplicedOrCommentedDirectiveIsStillRead) {
    const SyncAnalysis analysis = analyse(
        "#if \\\n 0\n__global__ void spliced(float* d) { __syncthreads(); }\n#endif\n"
        "__global__ void spliced(float* d) { d[0] = 1; }\n"
        "# /* why */ if /* not */ 0\n__global__ void commented(float* d) { __syncthreads(); }\n#endif\n"
        "__global__ void commented(float* d) { d[0] = 1; }\n");
    EXPECT_FALSE(analysis.may_synchronise("spliced"));
    EXPECT_FALSE(analysis.may_synchronise("commented"));
}

TEST(SyncAnalysis, AnUnterminatedConditionalKeepsWhatMayBeCompiled) {
    EXPECT_TRUE(analyse("#ifdef X\n__global__ void k(float* d) { __syncthreads(); }\n").may_synchronise("k"));
    // Only definition is dead: the kernel is unknown, hence synchronising.
    EXPECT_TRUE(analyse("#if 0\n__global__ void k(float* d) { d[0] = 1; }\n").may_synchronise("k"));
}

TEST(SyncAnalysis, KernelMacroAlias) {
    const SyncAnalysis analysis = analyse(R"cuda(
#define KERNEL extern "C" __global__
KERNEL void aliased_plain(float* d) { d[0] = 1; }
KERNEL void aliased_barrier(float* d) { d[0] = 1; __syncthreads(); }
)cuda");
    EXPECT_FALSE(analysis.may_synchronise("aliased_plain"));
    EXPECT_TRUE(analysis.may_synchronise("aliased_barrier"));
}

// Calls through pointers and functors: unresolved calls count once anything callable may synchronise.
constexpr std::string_view kIndirect = R"cuda(
typedef float (*unary_fn)(float);
__device__ float twice(float x) { return 2 * x; }
__device__ float synced_twice(float x) { __syncthreads(); return 2 * x; }
__device__ unary_fn table[] = {twice, synced_twice};

struct BlockSync { __device__ void operator()() const { __syncthreads(); } };
struct Twice { __device__ float operator()(float x) const { return 2 * x; } };

struct Op { __device__ virtual float run(float x) const { return x; } };
struct SyncedOp : Op { __device__ float run(float x) const override { __syncthreads(); return x; } };

template <typename F> __global__ void apply_functor(F f, float* d) { d[threadIdx.x] = f(d[threadIdx.x]); }

__global__ void through_parameter(unary_fn fn, float* d) { d[threadIdx.x] = fn(d[threadIdx.x]); }
__global__ void through_subscript(unary_fn* fns, float* d) { d[threadIdx.x] = fns[threadIdx.x % 2](d[threadIdx.x]); }
__global__ void through_deref(unary_fn fn, float* d) { d[threadIdx.x] = (*fn)(d[threadIdx.x]); }
__global__ void through_table(float* d) { d[threadIdx.x] = table[threadIdx.x % 2](d[threadIdx.x]); }
__global__ void address_taken(float* d) { unary_fn f = &synced_twice; d[0] = 1; (void)f; }
__global__ void with_functor(float* d) { BlockSync sync; d[threadIdx.x] = 1; sync(); }
__global__ void with_temporary_functor(float* d) { d[threadIdx.x] = 1; BlockSync{}(); }
__global__ void with_virtual(const Op* op, float* d) { d[threadIdx.x] = op->run(d[threadIdx.x]); }
__global__ void library_only(float* d, int* count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    d[i] = sqrtf(fabsf(d[i])) + __expf(1.0f) + min(i, 4) + (float)(i) + static_cast<float>(i);
    atomicAdd(count, 1);
    printf("%f\n", d[i]);
}
__global__ void local_lambda(float* d) {
    auto doubled = [](float v) { return 2 * v; };
    d[threadIdx.x] = doubled(d[threadIdx.x]) + twice(1.0f);
}
__global__ void lambda_with_barrier(float* d) {
    auto barrier = [] { __syncthreads(); };
    d[threadIdx.x] = 1;
    barrier();
}
)cuda";

TEST(SyncAnalysis, IndirectCallsCountWhenAnythingMaySynchronise) {
    const SyncAnalysis analysis = analyse(kIndirect);
    for (const char* kernel : {"through_parameter", "through_subscript", "through_deref", "through_table",
                               "address_taken", "with_functor", "with_temporary_functor", "with_virtual",
                               "lambda_with_barrier", "apply_functor<BlockSync>", "apply_functor<Twice>"}) {
        EXPECT_TRUE(analysis.may_synchronise(kernel)) << kernel;
    }
    EXPECT_FALSE(analysis.may_synchronise("library_only"));
    EXPECT_FALSE(analysis.may_synchronise("local_lambda"));
}

TEST(SyncAnalysis, IndirectCallsAreFreeWhenNothingSynchronises) {
    const SyncAnalysis analysis = analyse(R"cuda(
typedef float (*unary_fn)(float);
__device__ float twice(float x) { return 2 * x; }
struct Twice { __device__ float operator()(float x) const { return 2 * x; } };
template <typename F> __global__ void apply_functor(F f, float* d) { d[threadIdx.x] = f(d[threadIdx.x]); }
__global__ void through_parameter(unary_fn fn, float* d) { d[threadIdx.x] = fn(d[threadIdx.x]); }
__global__ void also_a_barrier_somewhere(float* d) { d[0] = 1; __syncthreads(); }
)cuda");
    // A kernel cannot be called through a pointer, so a synchronising kernel does not count.
    EXPECT_FALSE(analysis.may_synchronise("apply_functor<Twice>"));
    EXPECT_FALSE(analysis.may_synchronise("through_parameter"));
    EXPECT_TRUE(analysis.may_synchronise("also_a_barrier_somewhere"));
}

TEST(SyncAnalysis, LocalsAndMembersThatHoldPointers) {
    const SyncAnalysis analysis = analyse(R"cuda(
struct Params { float (*fn)(float); };
__device__ float helper(float x) { return x; }
__device__ void barrier() { __syncthreads(); }
__global__ void shadowed(Params p, float* d) { auto helper = p.fn; d[0] = helper(d[0]); }
__global__ void member_pointer(Params* p, float* d) { d[0] = p->fn(d[0]); }
__global__ void direct(float* d) {
    d[0] = helper(d[0]) + fmaxf(d[1], 0.0f) + std::numeric_limits<float>::max();
    __threadfence();
}
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("shadowed"));
    EXPECT_TRUE(analysis.may_synchronise("member_pointer"));
    EXPECT_FALSE(analysis.may_synchronise("direct"));
}

TEST(SyncAnalysis, DeclaredButNeverDefinedMaySynchronise) {
    const SyncAnalysis analysis = analyse(R"cuda(
__device__ float external_helper(float x);
__global__ void calls_external(float* d) { d[0] = external_helper(d[0]); }
__global__ void plain(float* d) { d[0] = 1; }
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("calls_external"));
    EXPECT_FALSE(analysis.may_synchronise("plain"));
}

TEST(SyncAnalysis, DefaultArgumentsAndFreeOperators) {
    const SyncAnalysis analysis = analyse(R"cuda(
__device__ int sync_value() { __syncthreads(); return 1; }
__device__ int pick(int x = sync_value());
__device__ int pick(int x) { return x; }
struct V { float x; };
__device__ V operator+(V a, V b) { __syncwarp(); return {a.x + b.x}; }
__global__ void defaulted(int* d) { d[0] = pick(); }
__global__ void adds_vectors(V* d) { d[0] = d[1] + d[2]; }
__global__ void adds_floats(float* d) { float a = d[1], b = d[2]; d[0] = a + b; }
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("defaulted"));
    EXPECT_TRUE(analysis.may_synchronise("adds_vectors"));
    EXPECT_FALSE(analysis.may_synchronise("adds_floats"));
}

TEST(SyncAnalysis, IncludedTextInsideADeclarationIsUnknown) {
    const SyncAnalysis analysis = analyse(
        "__global__ void generated(float* d) {\n#include \"body.inc\"\n}\n"
        "#include <cstdio>\n"
        "__global__ void plain(float* d) { d[0] = 1; }\n"
        "struct Assembled {\n#include \"members.inc\"\n};\n"
        "__global__ void uses_assembled(Assembled* a) { a->x = 1; }\n");
    EXPECT_TRUE(analysis.may_synchronise("generated"));
    EXPECT_FALSE(analysis.may_synchronise("plain"));
    EXPECT_TRUE(analysis.may_synchronise("uses_assembled"));
}

TEST(SyncAnalysis, ClassesAndMembers) {
    const SyncAnalysis analysis = analyse(R"cuda(
struct Tile {
    float values[256];
    __device__ void store(int i, float v) { values[i] = v; }
    __device__ void publish() { __syncthreads(); }
};
struct Guard {
    __device__ Guard() {}
    __device__ ~Guard() { __syncthreads(); }
};
struct BlockSync { __device__ void operator()() const { __syncthreads(); } };
struct Vec { float x, y; __device__ Vec operator+(Vec o) const { return {x + o.x, y + o.y}; } };
namespace detail { struct Counter { int n; __device__ int next(); }; }
__device__ int detail::Counter::next() { __syncwarp(); return ++n; }
__global__ void member_barrier(float* d) { __shared__ Tile tile; tile.store(threadIdx.x, d[0]); tile.publish(); }
__global__ void raii_barrier(float* d) { Guard guard; d[0] = 1; }
__global__ void out_of_class(int* d) { detail::Counter c{0}; d[0] = c.next(); }
__global__ void vectors(Vec* d) { d[0] = d[1] + d[2]; }
__global__ void explicit_operator(float* d) { BlockSync sync; sync.operator()(); d[0] = 1; }
)cuda");
    EXPECT_TRUE(analysis.may_synchronise("member_barrier"));
    EXPECT_TRUE(analysis.may_synchronise("raii_barrier"));
    EXPECT_TRUE(analysis.may_synchronise("out_of_class"));
    EXPECT_TRUE(analysis.may_synchronise("explicit_operator"));
    // BlockSync's operator synchronises; Vec's does not, though both are named `operator`.
    EXPECT_FALSE(analysis.may_synchronise("vectors"));
}

TEST(SyncAnalysis, ConstructorInitialisersAreNoCalls) {
    // `v(seed())` initialises a member; it is no call through a variable named v.
    const SyncAnalysis analysis = analyse(R"cuda(
__device__ int seed() { return 1; }
__device__ void barrier() { __syncthreads(); }
struct Counter {
    int v;
    __device__ Counter() : v(seed()) {}
    __device__ int get() const { return v; }
};
__global__ void counts(int* d) { Counter c; d[0] = c.get(); }
)cuda");
    EXPECT_FALSE(analysis.may_synchronise("counts"));
}

TEST(SyncAnalysis, CutOffKernelsMaySynchronise) {
    const SyncAnalysis analysis = analyse("__global__ void cut(float* d) { d[0] = 1;");
    EXPECT_TRUE(analysis.may_synchronise("cut"));
    EXPECT_TRUE(analyse("__device__ void helper() { __syncthreads();\n__global__ void k(float* d) { d[0] = 1; }")
                    .may_synchronise("k"));
}

// Every kernel in kTruncated that synchronises, and must keep saying so however the text is cut.
constexpr const char* kTruncatedSynchronising[] = {"matmul_tiled", "two_levels", "defined_after", "with_macro",
                                                   "reduce<float, 256>"};

constexpr std::string_view kTruncated = R"cuda(
#define TILE 16
#define SYNC() __syncthreads()
/* a block comment with __syncthreads() and a "quote */
__device__ float load_later(const float* in);
__device__ void wait_for_block() { __syncthreads(); }
__device__ void stage(float* tile, const float* in) { tile[threadIdx.x] = in[threadIdx.x]; wait_for_block(); }
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];  // "no barrier"
}
extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
    __shared__ float tile_a[TILE][TILE];
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        tile_a[threadIdx.y][threadIdx.x] = a[t];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += tile_a[threadIdx.y][k] * b[k];
        __syncthreads();
    }
    c[0] = sum;
}
extern "C" __global__ void two_levels(const float* in, float* out) { __shared__ float tile[256]; stage(tile, in); out[0] = tile[1]; }
extern "C" __global__ void defined_after(const float* in, float* out) { out[threadIdx.x] = load_later(in); }
__global__ void with_macro(float* d) { d[threadIdx.x] = 1; SYNC(); }
template <typename T, int BLOCK>
__global__ void reduce(const T* in, T* out) {
    __shared__ T partial[BLOCK];
    const char* note = R"(raw ")" string)";
    partial[threadIdx.x] = in[threadIdx.x] + note[0];
    for (int s = BLOCK / 2; s > 0; s /= 2) { __syncthreads(); if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s]; }
    *out = partial[0];
}
__device__ float load_later(const float* in) {
    __shared__ float copy[256];
    copy[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    return copy[0];
}
)cuda";

TEST(SyncAnalysis, EveryPrefixOfASourceIsSafe) {
    const auto started = std::chrono::steady_clock::now();
    const SyncAnalysis whole = analyse(kTruncated);
    EXPECT_FALSE(whole.may_synchronise("vector_add"));
    for (const char* kernel : kTruncatedSynchronising) EXPECT_TRUE(whole.may_synchronise(kernel)) << kernel;
    for (std::size_t length = 0; length <= kTruncated.size(); ++length) {
        const SyncAnalysis analysis = analyse(kTruncated.substr(0, length));
        for (const char* kernel : kTruncatedSynchronising) {
            ASSERT_TRUE(analysis.may_synchronise(kernel)) << kernel << " with the text cut at " << length;
        }
        (void)analysis.may_synchronise("vector_add");
    }
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));
}

TEST(SyncAnalysis, MangledSourcesNeverCrashOrHang) {
    std::mt19937 random(20250101);
    const auto started = std::chrono::steady_clock::now();
    for (int round = 0; round < 2000; ++round) {
        std::string text(kTruncated);
        // Cut out a random span, then overwrite a few random bytes with structural characters.
        const std::size_t from = random() % text.size();
        const std::size_t count = random() % (text.size() - from);
        text.erase(from, count);
        constexpr std::string_view structural = "{}()[]<>;:\"'\\/*#\n=,R";
        for (int edit = 0; edit < 3 && !text.empty(); ++edit) {
            text[random() % text.size()] = structural[random() % structural.size()];
        }
        const SyncAnalysis analysis = analyse(text);
        (void)analysis.may_synchronise("matmul_tiled");
        (void)analysis.may_synchronise("reduce<float, 256>");
    }
    // Deep nesting and long runs of one character stay linear.
    analyse(std::string(100000, '{'));
    analyse(std::string(100000, '('));
    analyse(std::string(100000, '<'));
    std::string nested_classes;
    for (int i = 0; i < 5000; ++i) nested_classes += "struct S { ";
    EXPECT_TRUE(analyse(nested_classes).may_synchronise("k"));
    std::string nested_namespaces;
    for (int i = 0; i < 100000; ++i) nested_namespaces += "namespace a { extern \"C\" { ";
    EXPECT_TRUE(analyse(nested_namespaces + "__global__ void k(float* d) { d[0] = 1; }").may_synchronise("k"));
    std::string many_templates;
    for (int i = 0; i < 5000; ++i) many_templates += "template <class T> ";
    analyse(many_templates);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));
}

}  // namespace
