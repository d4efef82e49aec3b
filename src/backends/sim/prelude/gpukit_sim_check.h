// src/backends/sim/prelude/gpukit_sim_check.h: the memory-access hooks of check mode.
//
// A check-mode module is compiled with -fsanitize=thread but not linked with ThreadSanitizer's
// runtime: the compiler's calls before every load and store (__tsan_read4, __tsan_write8, ...)
// and around every atomic land here. Most accesses are judged here, with the records the runtime
// hands the block (AccessFilter): inside a known range, aligned, initialised, and not possibly
// racing. The rest go to the simulator's checker with the address, the size and where in the
// kernel they come from. The hooks themselves are not instrumented.
#pragma once

#include "gpukit_sim_race.h"

// Hidden: the module's own instrumentation calls them directly, not through the PLT. Optimised
// even where the kernel is compiled at -Og for racecheck (GCC; Clang compiles them as the kernel).
#if defined(__clang__)
#define GPUKIT_SIM_HOOK extern "C" __attribute__((visibility("hidden"), no_sanitize_thread, noinline))
#else
#define GPUKIT_SIM_HOOK extern "C" __attribute__((visibility("hidden"), no_sanitize_thread, noinline, optimize("O2")))
#endif

namespace gpukit_sim {
#define GPUKIT_SIM_CHECK_INLINE __attribute__((no_sanitize_thread, always_inline)) inline

// The range of the block's filter that holds `address`, or null.
GPUKIT_SIM_CHECK_INLINE const AccessRange* range_of(const AccessFilter& filter, unsigned long address) {
    const AccessRange* first = filter.ranges;
    unsigned count = filter.range_count;
    while (count > 0) {  // the last range that begins at or before the address
        const unsigned half = count / 2;
        if (first[half].begin <= address) {
            first += half + 1;
            count -= half + 1;
        } else {
            count = half;
        }
    }
    return first == filter.ranges ? nullptr : first - 1;
}

// The kernel's judge for race_observe: whatever the block cannot show ordered goes to the runtime.
struct RefuseToJudge {
    GPUKIT_SIM_CHECK_INLINE bool operator()(const RaceRecord&, bool) const { return false; }
};

// racecheck in the kernel: observes the access in the records of one word; false when the
// runtime must judge it (a possible race, or an order only the runtime can tell).
GPUKIT_SIM_CHECK_INLINE bool race_word_in_kernel(const AccessRange& range, unsigned long word, RaceAccess& now,
                                                 unsigned long long meta) {
    now.meta = meta | static_cast<unsigned long long>(now.bytes) << race_bytes_shift;
    const unsigned long index = (word - (range.begin & ~3ul)) / 4;
    if (range.kind == range_shared) {
        SharedRaceCell& cell = static_cast<SharedRaceCell*>(range.race_cells)[index];
        return race_observe<2>(cell.writer, cell.readers, now, RefuseToJudge{});
    }
    return race_observe_global(static_cast<GlobalRaceCell*>(range.race_cells)[index], now, RefuseToJudge{});
}

// racecheck in the kernel, for each word the access touches.
GPUKIT_SIM_CHECK_INLINE bool race_judged_in_kernel(const ThreadContext& context, const AccessRange& range,
                                                   unsigned long address, unsigned long size, bool write,
                                                   const void* pc) {
    const BlockContext& block = *context.block;
    const AccessFilter& filter = *block.filter;
    const unsigned long long meta = race_meta(block.sync_time, 0, reinterpret_cast<unsigned long>(pc) - filter.pc_base);
    RaceAccess now{context.race_who, 0, 0, write, false, filter.launch_time};
    if (size <= 4) {  // aligned: one word
        now.bytes = ((1u << size) - 1u) << (address & 3);
        return race_word_in_kernel(range, address & ~3ul, now, meta);
    }
    for (unsigned long word = address; word < address + size; word += 4) {
        now.bytes = 15;
        if (!race_word_in_kernel(range, word, now, meta)) return false;
    }
    return true;
}

// Whether the access is judged here, by the block's filter and the records it hands the kernel;
// false sends it to the runtime.
GPUKIT_SIM_CHECK_INLINE bool judged_in_kernel(const ThreadContext& context, unsigned long address, unsigned long size,
                                              unsigned flags, const void* pc) {
    const BlockContext& block = *context.block;
    const AccessFilter& filter = *block.filter;
    if (filter.judge_nothing) return true;
    if ((flags & (access_fence | access_atomic)) != 0) return false;
    const unsigned long stack = reinterpret_cast<unsigned long>(&context) & ~(kStackBytes - 1);
    if (address - stack < kStackBytes && address + size <= stack + kStackBytes) return true;
    if (size > 16 || (address & (size - 1)) != 0) return false;
    const unsigned long instruction = reinterpret_cast<unsigned long>(pc);
    const AccessRange*& cached = filter.range_cache[(instruction ^ instruction >> 6) & (kRangeCacheSize - 1)];
    const AccessRange* range = cached;
    if (!range || address < range->begin || address + size > range->end) {
        range = range_of(filter, address);
        if (!range || address + size > range->end) return false;
        cached = range;
    }
    if (range->written && !__atomic_load_n(range->written, __ATOMIC_RELAXED)) return false;
    const bool write = (flags & access_write) != 0;
    // initcheck, __shared__: the words' records (one word, or the 2 or 4 an aligned 8 or 16 bytes span).
    unsigned* const words =
        range->written_words ? range->written_words + ((address - (range->begin & ~3ul)) >> 2) : nullptr;
    const unsigned words_touched = size <= 4 ? 1 : static_cast<unsigned>(size / 4);
    const unsigned bytes = size <= 4 ? ((1u << size) - 1u) << (address & 3) : 15u;
    if (words && !write) {
        for (unsigned i = 0; i < words_touched; ++i)
            if (!init_written(words[i], block.written_serial, bytes)) return false;
    }
    if (range->race_cells && !race_judged_in_kernel(context, *range, address, size, write, pc)) return false;
    if (words && write) {
        for (unsigned i = 0; i < words_touched; ++i) words[i] = init_record(words[i], block.written_serial, bytes);
    }
    return true;
}

GPUKIT_SIM_CHECK_INLINE void report_access(const volatile void* address, unsigned long size, unsigned flags,
                                           const void* pc) {
    ThreadContext& context = current();
    context.last_access = pc;
    if (judged_in_kernel(context, reinterpret_cast<unsigned long>(address), size, flags, pc)) return;
    hooks->access(&context, const_cast<const void*>(address), size, flags, pc);
}
}  // namespace gpukit_sim

GPUKIT_SIM_HOOK void __tsan_init() {}
GPUKIT_SIM_HOOK void __tsan_func_entry(void*) {}
GPUKIT_SIM_HOOK void __tsan_func_exit() {}
GPUKIT_SIM_HOOK void __tsan_vptr_update(void**, void*) {}
GPUKIT_SIM_HOOK void __tsan_vptr_read(void**) {}

#define GPUKIT_SIM_PLAIN_ACCESS(size)                                                              \
    GPUKIT_SIM_HOOK void __tsan_read##size(void* a) {                                              \
        gpukit_sim::report_access(a, size, gpukit_sim::access_read, __builtin_return_address(0));  \
    }                                                                                              \
    GPUKIT_SIM_HOOK void __tsan_write##size(void* a) {                                             \
        gpukit_sim::report_access(a, size, gpukit_sim::access_write, __builtin_return_address(0)); \
    }                                                                                              \
    GPUKIT_SIM_HOOK void __tsan_unaligned_read##size(void* a) {                                    \
        gpukit_sim::report_access(a, size, gpukit_sim::access_read, __builtin_return_address(0));  \
    }                                                                                              \
    GPUKIT_SIM_HOOK void __tsan_unaligned_write##size(void* a) {                                   \
        gpukit_sim::report_access(a, size, gpukit_sim::access_write, __builtin_return_address(0)); \
    }
GPUKIT_SIM_PLAIN_ACCESS(1)
GPUKIT_SIM_PLAIN_ACCESS(2)
GPUKIT_SIM_PLAIN_ACCESS(4)
GPUKIT_SIM_PLAIN_ACCESS(8)
GPUKIT_SIM_PLAIN_ACCESS(16)
#undef GPUKIT_SIM_PLAIN_ACCESS

GPUKIT_SIM_HOOK void __tsan_read_range(void* a, unsigned long size) {
    gpukit_sim::report_access(a, size, gpukit_sim::access_read, __builtin_return_address(0));
}
GPUKIT_SIM_HOOK void __tsan_write_range(void* a, unsigned long size) {
    gpukit_sim::report_access(a, size, gpukit_sim::access_write, __builtin_return_address(0));
}

// Atomics: the access is reported as atomic, then performed (these bodies are not instrumented).
#define GPUKIT_SIM_ATOMIC_FAMILY(bits, T)                                                                   \
    GPUKIT_SIM_HOOK T __tsan_atomic##bits##_load(const volatile T* a, int) {                                \
        gpukit_sim::report_access(a, sizeof(T), gpukit_sim::access_atomic, __builtin_return_address(0));    \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                        \
    }                                                                                                       \
    GPUKIT_SIM_HOOK void __tsan_atomic##bits##_store(volatile T* a, T v, int) {                             \
        gpukit_sim::report_access(a, sizeof(T), gpukit_sim::access_atomic | gpukit_sim::access_write,       \
                                  __builtin_return_address(0));                                             \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                           \
    }                                                                                                       \
    GPUKIT_SIM_ATOMIC_RMW(bits, T, exchange, __atomic_exchange_n)                                           \
    GPUKIT_SIM_ATOMIC_RMW(bits, T, fetch_add, __atomic_fetch_add)                                           \
    GPUKIT_SIM_ATOMIC_RMW(bits, T, fetch_sub, __atomic_fetch_sub)                                           \
    GPUKIT_SIM_ATOMIC_RMW(bits, T, fetch_and, __atomic_fetch_and)                                           \
    GPUKIT_SIM_ATOMIC_RMW(bits, T, fetch_or, __atomic_fetch_or)                                             \
    GPUKIT_SIM_ATOMIC_RMW(bits, T, fetch_xor, __atomic_fetch_xor)                                           \
    GPUKIT_SIM_ATOMIC_RMW(bits, T, fetch_nand, __atomic_fetch_nand)                                         \
    GPUKIT_SIM_HOOK int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) { \
        gpukit_sim::report_access(a, sizeof(T), gpukit_sim::access_atomic | gpukit_sim::access_write,       \
                                  __builtin_return_address(0));                                             \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);             \
    }                                                                                                       \
    GPUKIT_SIM_HOOK int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {   \
        gpukit_sim::report_access(a, sizeof(T), gpukit_sim::access_atomic | gpukit_sim::access_write,       \
                                  __builtin_return_address(0));                                             \
        return __atomic_compare_exchange_n(a, c, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
    }                                                                                                       \
    GPUKIT_SIM_HOOK T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int, int) {       \
        gpukit_sim::report_access(a, sizeof(T), gpukit_sim::access_atomic | gpukit_sim::access_write,       \
                                  __builtin_return_address(0));                                             \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                   \
        return c;                                                                                           \
    }

#define GPUKIT_SIM_ATOMIC_RMW(bits, T, name, builtin)                                                 \
    GPUKIT_SIM_HOOK T __tsan_atomic##bits##_##name(volatile T* a, T v, int) {                         \
        gpukit_sim::report_access(a, sizeof(T), gpukit_sim::access_atomic | gpukit_sim::access_write, \
                                  __builtin_return_address(0));                                       \
        return builtin(a, v, __ATOMIC_SEQ_CST);                                                       \
    }

GPUKIT_SIM_ATOMIC_FAMILY(8, unsigned char)
GPUKIT_SIM_ATOMIC_FAMILY(16, unsigned short)
GPUKIT_SIM_ATOMIC_FAMILY(32, unsigned int)
GPUKIT_SIM_ATOMIC_FAMILY(64, unsigned long long)
#undef GPUKIT_SIM_ATOMIC_FAMILY
#undef GPUKIT_SIM_ATOMIC_RMW

GPUKIT_SIM_HOOK void __tsan_atomic_thread_fence(int) {
    gpukit_sim::report_access(nullptr, 0, gpukit_sim::access_fence, __builtin_return_address(0));
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
GPUKIT_SIM_HOOK void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
