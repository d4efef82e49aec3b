// src/backends/sim/context_switch.cpp: switching the CPU between simulated threads' stacks.
//
// gpukit_sim_switch pushes the callee-saved registers of the running context, stores its stack
// pointer, loads the other's and pops its registers; `ret` then continues the other context where
// it called gpukit_sim_switch (or, the first time, in gpukit_sim_context_start).
#include "backends/sim/context_switch.hpp"

#include <cstdint>

#if defined(__x86_64__)

// System V x86-64: rbx, rbp, r12-r15 are callee-saved. A new context's r12 holds the argument
// and r13 the entry point for gpukit_sim_context_start.
__asm__(R"(
    .text
    .globl gpukit_sim_switch
    .type gpukit_sim_switch, @function
    .p2align 4
gpukit_sim_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size gpukit_sim_switch, .-gpukit_sim_switch

    .globl gpukit_sim_context_start
    .hidden gpukit_sim_context_start
    .type gpukit_sim_context_start, @function
    .p2align 4
gpukit_sim_context_start:
    movq %r12, %rdi
    callq *%r13
    ud2
    .size gpukit_sim_context_start, .-gpukit_sim_context_start
)");

extern "C" void gpukit_sim_context_start();

namespace gpukit::detail::sim {

StackPointer make_context(void* stack_top, void (*entry)(void*), void* argument) {
    // Popped in order r15, r14, r13, r12, rbx, rbp, then the return address. The stack is
    // 16-byte aligned when gpukit_sim_context_start begins, as its call of `entry` requires.
    auto top = reinterpret_cast<std::uintptr_t>(stack_top) & ~std::uintptr_t{15};
    auto* slots = reinterpret_cast<std::uintptr_t*>(top) - 7;
    slots[0] = 0;                                                            // r15
    slots[1] = 0;                                                            // r14
    slots[2] = reinterpret_cast<std::uintptr_t>(entry);                      // r13
    slots[3] = reinterpret_cast<std::uintptr_t>(argument);                   // r12
    slots[4] = 0;                                                            // rbx
    slots[5] = 0;                                                            // rbp
    slots[6] = reinterpret_cast<std::uintptr_t>(&gpukit_sim_context_start);  // return address
    return slots;
}

}  // namespace gpukit::detail::sim

#elif defined(__aarch64__)

// AAPCS64: x19-x28, x29 (frame pointer), x30 (link register) and d8-d15 are callee-saved. A
// new context's x19 holds the argument and x20 the entry point for gpukit_sim_context_start.
__asm__(R"(
    .text
    .globl gpukit_sim_switch
    .type gpukit_sim_switch, %function
    .p2align 4
gpukit_sim_switch:
    sub sp, sp, #160
    stp x19, x20, [sp, #0]
    stp x21, x22, [sp, #16]
    stp x23, x24, [sp, #32]
    stp x25, x26, [sp, #48]
    stp x27, x28, [sp, #64]
    stp x29, x30, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    mov x9, sp
    str x9, [x0]
    mov sp, x1
    ldp x19, x20, [sp, #0]
    ldp x21, x22, [sp, #16]
    ldp x23, x24, [sp, #32]
    ldp x25, x26, [sp, #48]
    ldp x27, x28, [sp, #64]
    ldp x29, x30, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    add sp, sp, #160
    ret
    .size gpukit_sim_switch, .-gpukit_sim_switch

    .globl gpukit_sim_context_start
    .hidden gpukit_sim_context_start
    .type gpukit_sim_context_start, %function
    .p2align 4
gpukit_sim_context_start:
    mov x0, x19
    blr x20
    brk #0
    .size gpukit_sim_context_start, .-gpukit_sim_context_start
)");

extern "C" void gpukit_sim_context_start();

namespace gpukit::detail::sim {

StackPointer make_context(void* stack_top, void (*entry)(void*), void* argument) {
    // The frame gpukit_sim_switch pops: x19..x28, x29, x30, d8..d15 (160 bytes).
    auto top = reinterpret_cast<std::uintptr_t>(stack_top) & ~std::uintptr_t{15};
    auto* frame = reinterpret_cast<std::uintptr_t*>(top - 160);
    for (int i = 0; i < 20; ++i) frame[i] = 0;
    frame[0] = reinterpret_cast<std::uintptr_t>(argument);                    // x19
    frame[1] = reinterpret_cast<std::uintptr_t>(entry);                       // x20
    frame[11] = reinterpret_cast<std::uintptr_t>(&gpukit_sim_context_start);  // x30
    return frame;
}

}  // namespace gpukit::detail::sim

#else
#error "gpukit's simulator switches fibers on x86-64 and AArch64 only"
#endif
