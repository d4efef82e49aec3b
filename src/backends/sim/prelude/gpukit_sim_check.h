// src/backends/sim/prelude/gpukit_sim_check.h: the memory-access hooks of check mode.
//
// A check-mode module is compiled with -fsanitize=thread but not linked with ThreadSanitizer's
// runtime: the compiler's calls before every load and store (__tsan_read4, __tsan_write8, ...)
// and around every atomic land here and go to the simulator's checker with the address, the
// size and where in the kernel they come from. The hooks themselves are not instrumented.
#pragma once

#define GPUKIT_SIM_HOOK extern "C" __attribute__((visibility("default"), no_sanitize_thread, noinline))

namespace gpukit_sim {
#define GPUKIT_SIM_CHECK_INLINE __attribute__((no_sanitize_thread, always_inline)) inline

// Whether the access is fine by the block's filter alone (see AccessFilter): most are, and
// judging them here costs a few instructions instead of a call into the runtime.
GPUKIT_SIM_CHECK_INLINE bool fine_by_filter(const ThreadContext& context, unsigned long address, unsigned long size,
                                            unsigned flags) {
    const AccessFilter& filter = *context.block->filter;
    if (filter.judge_nothing) return true;
    if (filter.call_always || (flags & access_fence) != 0) return false;
    const unsigned long stack = reinterpret_cast<unsigned long>(&context) & ~(kStackBytes - 1);
    if (address - stack < kStackBytes && address + size <= stack + kStackBytes) return true;
    const unsigned long block = reinterpret_cast<unsigned long>(context.block);
    if (address - block < sizeof(BlockContext) && address + size <= block + sizeof(BlockContext)) return true;
    if (size > 16 || (address & (size - 1)) != 0) return false;
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
    if (first == filter.ranges) return false;
    const AccessRange& range = first[-1];
    return address + size <= range.end && (!range.written || __atomic_load_n(range.written, __ATOMIC_RELAXED));
}

GPUKIT_SIM_CHECK_INLINE void report_access(const volatile void* address, unsigned long size, unsigned flags,
                                           const void* pc) {
    ThreadContext& context = current();
    context.last_access = pc;
    if (fine_by_filter(context, reinterpret_cast<unsigned long>(address), size, flags)) return;
    hooks->access(context.thread, const_cast<const void*>(address), size, flags, pc);
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
