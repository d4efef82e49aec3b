// src/backends/sim/prelude/gpukit_sim_abi.h: what a compiled kernel module and the simulator
// runtime hand each other. Included by the prelude (inside the kernel .so) and by the runtime
// (inside libgpukit), so it holds plain C-layout types only. Bump kAbiVersion on any change.
#pragma once

namespace gpukit_sim {

constexpr unsigned kAbiVersion = 8;

// Every simulated thread runs on a stack of this many bytes aligned to its own size, whose lowest
// bytes hold its ThreadContext: the thread finds its identity from its stack pointer, with no
// thread-local lookup, and no fiber switch can make it stale.
#ifndef GPUKIT_SIM_STACK_BYTES
#define GPUKIT_SIM_STACK_BYTES 65536
#endif
constexpr unsigned long kStackBytes = GPUKIT_SIM_STACK_BYTES;
static_assert((kStackBytes & (kStackBytes - 1)) == 0, "the stack size must be a power of two");

struct Index3 {
    unsigned x, y, z;
};

// Kinds of block barrier.
enum BarrierKind : int { barrier_plain = 0, barrier_count = 1, barrier_and = 2, barrier_or = 3 };

// Kinds of warp collective.
enum WarpKind : int {
    warp_sync = 0,       // __syncwarp
    warp_shfl = 1,       // __shfl_sync: operand = source lane
    warp_shfl_up = 2,    // operand = delta
    warp_shfl_down = 3,  // operand = delta
    warp_shfl_xor = 4,   // operand = lane mask
    warp_ballot = 5,     // value = predicate
    warp_any = 6,
    warp_all = 7,
    warp_activemask = 8,   // mask ignored: the lanes that arrive together
    warp_reduce_add = 9,   // 32-bit unsigned/int
    warp_reduce_min = 10,  // operand: 1 signed, 0 unsigned
    warp_reduce_max = 11,
    warp_reduce_and = 12,
    warp_reduce_or = 13,
    warp_reduce_xor = 14,
    warp_match_any = 15,  // value: the 64-bit pattern to match
    warp_match_all = 16,
};

// Check mode: what a kernel may judge by itself, before it calls the runtime. An access inside
// the thread's stack, the block's context or one of `ranges` (live allocations and the module's
// image, by address), naturally aligned, needs nothing more, unless `call_always` (racecheck
// sees every access) or the range's `written` flag is present and still false (initcheck must
// see reads of memory nothing has written, and partial writes of it).
struct AccessRange {
    unsigned long begin, end;
    const bool* written;  // initcheck: the allocation is written whole; null when not judged
};
struct AccessFilter {
    bool judge_nothing;  // only synccheck: remember where the thread is, judge no access
    bool call_always;
    unsigned range_count;
    const AccessRange* ranges;
};

struct BlockContext {
    Index3 block_idx;
    Index3 block_dim;
    Index3 grid_dim;
    const AccessFilter* filter;  // check mode only
};

// Who a simulated thread is: at the top of its stack region (see kStackBytes), where the runtime
// also keeps its own record of the thread, so that a switch to the thread touches a few
// neighbouring cache lines. The stack grows down from below it; the region's first page guards
// the bottom. Regions sit kStackBytes apart, so the offset varies with the region's address:
// at one fixed offset every thread's context would fall into the same cache set.
constexpr unsigned long kContextReserve = 256;  // the ThreadContext and the runtime's record
inline unsigned long context_address(unsigned long region) {
    return region + kStackBytes - kContextReserve - ((region / kStackBytes) & 63) * 64;
}
struct ThreadContext {
    Index3 thread_idx;
    void* thread;  // the runtime's handle of the simulated thread; null in loop mode
    const BlockContext* block;
    const void* last_access;  // check mode: the instruction after its latest memory access
};

// Why a kernel ends its launch through RuntimeHooks::fault.
enum FaultHookKind : int { fault_assertion = 0, fault_trap = 1, fault_abort = 2, fault_exit = 3 };

// Services of the runtime, given to the module when it is loaded.
struct RuntimeHooks {
    unsigned abi_version;
    // Waits for every live thread of the block; returns the count/and/or result for those kinds.
    int (*block_barrier)(void* thread, int kind, int predicate, const char* file, int line);
    // A warp collective over the lanes in `mask`; returns this lane's result.
    unsigned long long (*warp_collective)(void* thread, int kind, unsigned mask, unsigned long long value, int operand,
                                          int width, const char* file, int line);
    // A synchronising built-in was reached by a kernel the static analysis judged barrier-free.
    void (*barrier_in_loop_mode)(const char* what, const char* file, int line);
    // Lets the other threads of the block run (a failed atomicCAS: a spin lock makes progress).
    void (*yield)(void* thread);
    // Check mode: the kernel is about to access `size` bytes at `address` (flags: access_*), from
    // the instruction after `pc`. Does not return when the access must not happen.
    void (*access)(void* thread, const void* address, unsigned long size, unsigned flags, const void* pc);
    // The calling simulated thread ends its launch (a failed assert, __trap(), abort(), exit()):
    // `text` is the failed expression or what was called, `file`/`line`/`function` say where when
    // known (null, 0), `value` is exit's status, `pc` the caller's return address. Never returns.
    void (*fault)(int kind, const char* text, const char* file, int line, const char* function, long value,
                  const void* pc);
};

// access_fence: a __threadfence (no address): what the thread wrote before it is published.
enum AccessFlags : unsigned { access_read = 0, access_write = 1, access_atomic = 2, access_fence = 4 };

// One kernel of the module.
struct KernelRecord {
    const char* name;  // as looked up: extern "C" name, qualified name, or name expression
    // Runs the threads of one block one after another, from linear index `first` on (kernels that
    // never synchronise; check mode starts again after a thread it stopped).
    void (*run_block_loop)(void* const* args, unsigned first);
    // Runs one thread (a fiber of a block that synchronises); its ThreadContext is set.
    void (*run_thread)(void* const* args);
    unsigned param_count;
    const unsigned long* param_sizes;
    const unsigned long* param_offsets;
    bool synchronises;  // decided statically from the source when the module was compiled
};

struct ModuleRecord {
    unsigned abi_version;
    unsigned kernel_count;
    const KernelRecord* kernels;
    unsigned long dynamic_shared_capacity;  // bytes behind every extern __shared__ array
    unsigned long stack_bytes;              // kStackBytes the module was compiled with
    // Allocates the calling OS thread's copy of the module's thread-local memory (its __shared__
    // variables). The runtime calls it before a worker runs the module's kernel code: the first
    // access otherwise goes through glibc's slow TLS-descriptor path, which (glibc bug 31372)
    // does not preserve the caller's vector registers.
    void* (*prepare_thread)();
    unsigned check_tools;  // gpukit::CheckTool bits the module was compiled for; 0 in fast mode
};

}  // namespace gpukit_sim

// Every kernel module exports this one entry.
extern "C" typedef const gpukit_sim::ModuleRecord* (*gpukit_sim_module_entry)(const gpukit_sim::RuntimeHooks*);
