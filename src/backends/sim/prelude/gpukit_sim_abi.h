// src/backends/sim/prelude/gpukit_sim_abi.h: what a compiled kernel module and the simulator
// runtime hand each other. Included by the prelude (inside the kernel .so) and by the runtime
// (inside libgpukit), so it holds plain C-layout types only. Bump kAbiVersion on any change.
#pragma once

namespace gpukit_sim {

constexpr unsigned kAbiVersion = 9;

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

// Check mode: what a kernel judges by itself before it calls the runtime (gpukit_sim_check.h).
// An access inside the thread's stack is fine. One inside a range of `ranges` (live allocations,
// the module's variables and the block's __shared__ variables, by address), naturally aligned,
// is judged in the kernel, with the records of the range the runtime hands it: initcheck's (an
// allocation written whole, the bytes of __shared__ memory this block wrote) and racecheck's
// (gpukit_sim_race.h). Everything else, and whatever the kernel cannot decide (a possible race,
// an uninitialised read), goes to the runtime, which reports it.
enum RangeKind : unsigned char { range_global = 0, range_shared = 1 };
struct AccessRange {
    unsigned long begin, end;
    const bool* written;      // initcheck: the allocation is written whole; null when not judged
    unsigned* written_words;  // initcheck, __shared__: the record (init_record) of the word holding `begin`
    void* race_cells;         // racecheck: the cell of the word holding `begin` (GlobalRaceCell or
                              // SharedRaceCell by `kind`); null when racecheck does not watch
    RangeKind kind;
};
constexpr unsigned kRangeCacheSize = 64;
struct AccessFilter {
    bool judge_nothing;  // only synccheck: remember where the thread is, judge no access
    unsigned range_count;
    const AccessRange* ranges;
    // The range each instruction touched last, by a hash of the instruction (kRangeCacheSize
    // entries, null: none yet): one worker's, so that most accesses skip the search.
    const AccessRange** range_cache;
    unsigned long pc_base;  // racecheck: the module's load address (records keep offsets from it)
    unsigned launch_time;   // racecheck: the sync clock when the launch started; older records are stale
};

struct BlockContext {
    Index3 block_idx;
    Index3 block_dim;
    Index3 grid_dim;
    const AccessFilter* filter;  // check mode only
    // Check mode, kept up to date by the runtime:
    unsigned long long who_base;  // racecheck: the block's part of RaceRecord::who (race_block_shift)
    unsigned sync_time;           // racecheck: the sync clock at the block's latest atomic or fence
    unsigned written_serial;      // initcheck: this block run, as init_record counts it
};

// initcheck's record of one 4-byte word of __shared__ memory: the block run that last wrote it
// (BlockContext::written_serial, high 28 bits) and which bytes of the word that run wrote.
constexpr unsigned kInitSerialLimit = 1u << 28;
__attribute__((always_inline)) inline bool init_written(unsigned record, unsigned serial, unsigned bytes) {
    return (record >> 4) == serial && (record & bytes) == bytes;
}
__attribute__((always_inline)) inline unsigned init_record(unsigned record, unsigned serial, unsigned bytes) {
    return ((record >> 4) == serial ? record : serial << 4) | bytes;
}

// racecheck's record of one access, two words. `who`: the thread and how far its block and its
// warp have synchronised; `meta`: the sync clock (low 32 bits), which bytes of the word it
// touched, and the instruction, as an offset from AccessFilter::pc_base.
struct RaceRecord {
    unsigned long long who;
    unsigned long long meta;
};
constexpr unsigned long long race_lock = 1;  // in a GlobalRaceCell's writer.who: a thread updates the cell
constexpr unsigned long long race_valid = 2;
constexpr unsigned long long race_atomic = 4;
constexpr unsigned race_thread_shift = 3, race_thread_bits = 10;  // up to 1024 threads a block
constexpr unsigned race_block_shift = 13, race_block_bits = 24;   // the linear block index, modulo 2^24
constexpr unsigned race_block_generation_shift = 37, race_block_generation_bits = 16;  // barriers completed
constexpr unsigned race_warp_generation_shift = 53, race_warp_generation_bits = 11;    // collectives completed
constexpr unsigned race_bytes_shift = 32, race_pc_shift = 36;                          // in `meta`
// One per 4-byte word of global memory: the latest writer and a reader. Workers share them: the
// writer's lock bit guards the cell.
struct GlobalRaceCell {
    RaceRecord writer;
    RaceRecord reader;
};
// One per 4-byte word of a worker's __shared__ memory, which one block at a time touches: no lock,
// and two readers, so that a thread that reads, then writes, still meets another reader.
struct SharedRaceCell {
    RaceRecord writer;
    RaceRecord readers[2];
};

// Who a simulated thread is: at the top of its stack region (see kStackBytes), where the runtime
// also keeps its own record of the thread, so that a switch to the thread touches a few
// neighbouring cache lines. The stack grows down from below it; the region's first page guards
// the bottom. Regions sit kStackBytes apart, so the offset varies with the region's address:
// at one fixed offset every thread's context would fall into the same cache set.
constexpr unsigned long kContextReserve = 256;  // the ThreadContext and the runtime's record
__attribute__((always_inline)) inline unsigned long context_address(unsigned long region) {
    return region + kStackBytes - kContextReserve - ((region / kStackBytes) & 63) * 64;
}
struct ThreadContext {
    Index3 thread_idx;
    void* thread;  // the runtime's handle of the simulated thread; null in loop mode
    const BlockContext* block;
    const void* last_access;      // check mode: the instruction after its latest memory access
    unsigned long long race_who;  // racecheck: RaceRecord::who of this thread's accesses now
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
    // Check mode: the thread of `context` is about to access `size` bytes at `address` (flags:
    // access_*), from the instruction after `pc`. Does not return when the access must not happen.
    void (*access)(ThreadContext* context, const void* address, unsigned long size, unsigned flags, const void* pc);
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
