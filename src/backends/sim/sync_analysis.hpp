// src/backends/sim/sync_analysis.hpp: decides from CUDA C source which kernels may reach a barrier.
//
// The simulator runs a block's threads as a plain loop when a kernel can never synchronise, and as
// fibers otherwise (research/simulator.md §7 item 5). Judging a synchronising kernel barrier-free would
// compute wrong results; the reverse only runs slower. So the analysis is static, reads the text rather
// than compiling it, and resolves every doubt towards "may synchronise".
//
// The rules, all conservative:
// - Synchronising built-ins: __syncthreads{,_count,_and,_or}, __syncwarp, the __shfl/__ballot/__any/
//   __all/__match/__reduce *_sync families and their legacy unsuffixed forms, __activemask; also any
//   other reserved (`__`) identifier containing "sync" or "barrier", or starting with __shfl, __ballot or
//   __match. Any mention of cooperative_groups, of its entry points (this_thread_block, tiled_partition,
//   this_grid, coalesced_threads, this_multi_grid, this_cluster, labeled_partition, binary_partition)
//   or of its group types; libcu++ arrive_and_wait/arrive_and_drop; and inline `asm`, whose PTX may hold
//   bar.sync or shfl.sync.
// - The text is read after line splicing, without comments or literal contents. Branches that are
//   certainly not compiled (`#if 0`, the `#else` of `#if 1`; source/condition.hpp) are skipped; every
//   branch of any other conditional is kept. Macros are not expanded: code mentions a macro's name and
//   its arguments, and a macro mentions its replacement.
// - Every declaration at namespace or class scope (function, kernel, class, variable, alias, prototype,
//   macro, macro invocation that defines things) gives meaning to some names and mentions the
//   identifiers in it: a function its signature and body (lambdas and local classes included), a macro
//   its replacement. A name may synchronise when any declaration of it mentions a synchronising built-in
//   or name (calls and mere references alike), is cut off by the end of the text, holds an #include
//   (whose text is not there), or is declared but never defined (its body is unknown). Names are merged
//   across overloads, namespaces and classes. A class may synchronise when any of its members may
//   (constructors, destructors and operators run without being named); a free operator counts for the
//   classes in its parameter list. Blocks nested deeper than the reader follows count as synchronising.
// - Calls the analysis cannot resolve: a call through a variable, parameter or local (`fn(x)`, unless
//   the local only ever holds a lambda written in place), through a subscript (`a[i](x)`), through a
//   parenthesised expression that is not a cast (`(*fp)(x)`), of a call's result (`f(x)(y)`), of a data
//   member (`p->fn(x)`), of a temporary of an unknown type (`T{}(x)`), or of a name that is neither
//   declared in the texts nor a known library function (CUDA math, atomics, intrinsics, printf...). A
//   declaration holding one may synchronise when anything else in the texts (other than a kernel, which
//   cannot be called) may. Constructing a template type parameter (`T(x)`, `T{}`) is resolved: the code
//   that instantiates the template, or the kernel's name expression, names the type.
// - A kernel is a function definition with __global__ (or an object-like macro expanding to it) before
//   its body. Its verdict is its own definition's: a declarator is no mention of its own name, so `a::k`
//   and `b::k` are judged apart, while the query "k" answers for both (true if either may synchronise).
//   A kernel defined by a function-like macro is not found, hence unknown, hence synchronising.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace gpukit::detail::sim {

// What the source says about which kernels may synchronise.
class SyncAnalysis {
public:
    // True unless the kernel provably never reaches a synchronising built-in. `kernel` is a base name
    // ("reduce"), a qualified name ("ns::reduce", "::reduce" for the global namespace only) or a name
    // expression ("reduce<float, 256>", "&reduce<float>"), matched on its base name; every kernel definition
    // that matches counts (overloads, specialisations, other namespaces for an unqualified name), and a
    // template argument naming something that may synchronise counts too. Unknown kernels return true.
    bool may_synchronise(std::string_view kernel) const;

private:
    friend SyncAnalysis analyse_synchronisation(const std::vector<std::string_view>& texts);

    struct KernelVerdict {
        std::vector<std::string> scope;  // enclosing namespaces, then qualifiers written on the name
        std::string name;
        bool may_synchronise = true;
    };

    std::vector<KernelVerdict> kernels_;
    std::unordered_set<std::string> synchronising_names_;  // for template arguments of name expressions
};

// `texts` are the user's source and the text of every header it includes (the caller passes them all).
// Never throws on malformed or truncated input; what it cannot read counts as synchronising.
SyncAnalysis analyse_synchronisation(const std::vector<std::string_view>& texts);

}  // namespace gpukit::detail::sim
