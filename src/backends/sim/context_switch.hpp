// src/backends/sim/context_switch.hpp: switching the CPU between simulated threads' stacks.
//
// A block's threads are fibers; a barrier hands the OS thread from one to the next. The switch
// saves only the callee-saved registers (the compiler has saved the rest around the call) and
// returns with `ret`, so the CPU's return-address predictor stays in step: with Boost.Context's
// fcontext, which ends in an indirect jump and also reloads the floating-point control words, a
// thread-barrier cost about three times as much (see bench/sim_bench.cpp). Kernels never change
// the floating-point control state across a barrier, so it is not saved.
#pragma once

namespace gpukit::detail::sim {

// A suspended context: the stack pointer where its callee-saved registers were pushed.
using StackPointer = void*;

// Prepares `stack_top` (16-byte aligned, the highest address of a stack) so that the first
// switch to the returned context calls entry(argument). `entry` must never return: it ends by
// switching away for good.
StackPointer make_context(void* stack_top, void (*entry)(void*), void* argument);

}  // namespace gpukit::detail::sim

// Saves the running context into *save and resumes `resume`. Returns when something switches
// back to *save.
extern "C" void gpukit_sim_switch(gpukit::detail::sim::StackPointer* save, gpukit::detail::sim::StackPointer resume);
