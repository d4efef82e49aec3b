// src/backends/sim/block_runner.cpp: runs the threads of one block on the calling OS thread.
#include "backends/sim/block_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends/sim/check/launch_checker.hpp"
#include "backends/sim/context_switch.hpp"
#include "backends/sim/fault_report.hpp"
#include "backends/sim/fiber_stacks.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

using gpukit_sim::Index3;

enum class State : std::uint8_t { ready, at_block_barrier, at_warp, exited };

class Block;

// Lives right after the thread's ThreadContext (FiberStacks::record): the fields a barrier touches
// come first, so they share the context's cache line.
struct SimThread {
    StackPointer context = nullptr;  // where to resume it
    Block* block = nullptr;
    unsigned generation = 0;  // of the block barrier it waits at
    unsigned linear = 0;
    State state = State::ready;
    std::uint8_t lane = 0;
    int kind = 0;
    // Where it waits, for deadlock reports.
    const char* file = nullptr;
    int line = 0;
    unsigned warp = 0;
    Index3 idx{};
    // Warp collectives.
    unsigned mask = 0;
    std::uint64_t value = 0;
    int operand = 0;
    int width = 32;
    std::uint64_t result = 0;
    check::ThreadState check;                             // check mode: what the tools keep per thread
    bool mask_without_self = false;                       // its collective's mask left the lane out
    gpukit_sim::ThreadContext* thread_context = nullptr;  // at the top of its stack
};

struct WarpState {
    unsigned live = 0;        // lanes that exist and have not returned
    unsigned waiting = 0;     // lanes waiting in a collective
    unsigned generation = 0;  // collectives completed (check mode: lanes are ordered across one)
    unsigned returned = 0;    // lanes that have returned
};

constexpr unsigned bit(unsigned lane) { return 1u << lane; }

// A thread's own id is enough to find the one running when a fault hits: see running_block().
thread_local RunningBlock running{};
thread_local bool running_valid = false;

class Block;
// The block this OS thread runs: check mode's loop-mode accesses find it here (a plain pointer,
// which costs no thread-local initialisation check on every access).
thread_local Block* running_block_object = nullptr;

class Block {
public:
    void run(const BlockLaunch& launch, Index3 block_idx) {
        launch_ = &launch;
        block_idx_ = block_idx;
        block_context_ = {block_idx, launch.block, launch.grid, nullptr, 0, 0, 0};
        running = {launch.kernel->name.c_str(), block_idx, launch.tag, launch.module};
        running_valid = true;
        struct Done {
            ~Done() { running_valid = false; }
        } done;
        failure_ = nullptr;
        fault_.reset();
        deadlock_.clear();
        solo_yields_ = 0;
        launch.module->record().prepare_thread();
        running_block_object = this;
        check_hooks_ = launch.checker ? launch.checker->hooks() : check::Hooks{};
        if (launch.checker) {
            check_block_.index = block_idx;
            check_block_.linear =
                block_idx.x + std::uint64_t{launch.grid.x} * (block_idx.y + std::uint64_t{launch.grid.y} * block_idx.z);
            check_block_.shared_begin = launch.module->thread_local_block();
            check_block_.context = &block_context_;
            block_context_.filter = &launch.checker->block_starts(check_block_);
        }
        const bool loop = !launch.kernel->record->synchronises && !always_fibers();
        if (loop) {
            run_loop();
        } else {
            run_fibers();
        }
        if (fault_) throw_fault();
        if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
        if (!deadlock_.empty()) throw LaunchError(deadlock_);
    }

    // A failed atomicCAS: let the rest of the block run before trying again. A thread that keeps
    // failing while no other thread of its block can run may be waiting for another block, but
    // after GPUKIT_SIM_WATCHDOG_SECONDS (default 10) of that it is taken to wait forever.
    void yield(SimThread* self) {
        SimThread* next = self ? next_ready_from(self->linear) : nullptr;
        if (next && next != self) {
            solo_yields_ = 0;
            switch_to(*self, *next);
            return;
        }
        if (++solo_yields_ % 4096 != 0) return;
        const auto now = std::chrono::steady_clock::now();
        if (solo_yields_ == 4096) spin_started_ = now;
        if (now - spin_started_ < watchdog()) return;
        std::string where = concat("a thread of block (", block_idx_.x, ", ", block_idx_.y, ", ", block_idx_.z, ")");
        if (self) {
            write_deadlock_report();
            deadlock_ += concat("\n  thread ", self->linear, " has retried a failed atomicCAS for ",
                                std::chrono::duration_cast<std::chrono::seconds>(watchdog()).count(),
                                " s while no other thread of its block can run");
            leave_to_scheduler(*self);
        }
        throw LaunchError(concat("Kernel ", launch_->kernel->name, ": ", where, " has retried a failed atomicCAS for ",
                                 std::chrono::duration_cast<std::chrono::seconds>(watchdog()).count(),
                                 " s; it waits for something no thread will do (a lock never released?)"));
    }

    // The kernel threw (a C++ exception in user code, or gpukit's internal-error report): keep the
    // first, and end the thread.
    void record_failure(std::exception_ptr failure) {
        if (!failure_) failure_ = std::move(failure);
    }

    const FiberStacks& stacks() const noexcept { return stacks_; }

    // A simulated thread ends the launch (RuntimeHooks::fault), on its own stack: note who and why,
    // and leave the block at once. The threads not yet finished are abandoned (their stacks are
    // made afresh for the next block); run() throws the KernelFaultError.
    [[noreturn]] void fault(int kind, const char* text, const char* file, int line, const char* function, long value,
                            const void* pc, const void* stack) {
        const gpukit_sim::ThreadContext* context = stacks_.context_of(stack);
        PendingFault pending;
        pending.kind = kind;
        pending.text = text ? text : "";
        pending.file = file ? file : "";
        pending.line = line;
        pending.function = function ? function : "";
        pending.value = value;
        pending.pc = pc;
        pending.thread_known = context != nullptr;
        if (context) pending.thread = context->thread_idx;
        if (!fault_) fault_ = std::move(pending);
        if (context && context->thread) leave_to_scheduler(*static_cast<SimThread*>(context->thread));
        loop_resume_at_ = launch_->block.x * launch_->block.y * launch_->block.z;  // the loop does not go on
        leave_loop();
    }

    // Check mode: judges an access of `self`; a bad one ends the thread before it happens.
    void check_access(SimThread& self, const gpukit_sim::ThreadContext& context, const void* address, std::size_t size,
                      unsigned flags, const void* pc) {
        const auto region = reinterpret_cast<std::uintptr_t>(&context) & ~(stack_bytes_ - 1);
        const unsigned warp_generation = warps_.empty() ? 0u : warps_[self.warp].generation;
        if (judge(context, self.linear, region, generation_, warp_generation, self.check, address, size, flags, pc) ==
            check::Verdict::stop)
            thread_exited(self);
    }

    // Check mode, a kernel that never synchronises: its threads run one after another on the
    // loop's stack. A bad access ends the loop there, and run_loop starts it again after the thread.
    void check_loop_access(const gpukit_sim::ThreadContext& context, const void* address, std::size_t size,
                           unsigned flags, const void* pc) {
        const Index3 dim = launch_->block;
        const unsigned linear = context.thread_idx.x + dim.x * (context.thread_idx.y + dim.y * context.thread_idx.z);
        if (linear != loop_thread_) {
            loop_thread_ = linear;
            loop_thread_check_ = {};
        }
        const auto region = reinterpret_cast<std::uintptr_t>(&context) & ~(stack_bytes_ - 1);
        if (judge(context, linear, region, 0, 0, loop_thread_check_, address, size, flags, pc) ==
            check::Verdict::proceed)
            return;
        loop_resume_at_ = linear + 1;
        leave_loop();
    }

    // The access as the launch's tools see it.
    check::Verdict judge(const gpukit_sim::ThreadContext& context, unsigned linear, std::uintptr_t stack_region,
                         unsigned block_generation, unsigned warp_generation, check::ThreadState& thread_state,
                         const void* address, std::size_t size, unsigned flags, const void* pc) {
        const check::AccessSite site{check_block_,     context,         context.thread_idx, linear,
                                     block_generation, warp_generation, stack_region,       stack_region + stack_bytes_,
                                     thread_state};
        return launch_->checker->check(site, {reinterpret_cast<std::uintptr_t>(address), size, flags, pc});
    }

    [[gnu::always_inline]] int block_barrier(SimThread& self, int kind, int predicate, const char* file, int line) {
        self.state = State::at_block_barrier;
        self.file = file;
        self.line = line;
        self.kind = kind;
        self.generation = generation_;
        const unsigned slot = generation_ & 1;
        if (kind != gpukit_sim::barrier_plain) [[unlikely]] {
            count_[slot] += predicate;
            and_[slot] &= predicate;
            or_[slot] |= predicate;
        }
        if (arrived_++ == 0) first_arrival_ = &self;
        if (arrived_ == live_) {
            complete_block_barrier();
        } else {
            wait(self);
        }
        self.state = State::ready;
        if (block_context_.who_base) [[unlikely]]
            update_race_who(self);
        switch (kind) {
            case gpukit_sim::barrier_count: return count_[slot];
            case gpukit_sim::barrier_and: return and_[slot];
            case gpukit_sim::barrier_or: return or_[slot];
            default: return 0;
        }
    }

    std::uint64_t warp_collective(SimThread& self, int kind, unsigned mask, std::uint64_t value, int operand, int width,
                                  const char* file, int line) {
        self.mask_without_self = !(mask & bit(self.lane)) && kind != gpukit_sim::warp_activemask;
        if (self.mask_without_self && check_hooks_.contains(check::Hook::mask_without_lane)) [[unlikely]]
            for (check::Tool* tool : launch_->checker->tools_for(check::Hook::mask_without_lane))
                tool->mask_without_lane(check_block_, {self.idx, self.lane, file, line, kind, mask});
        self.state = State::at_warp;
        self.kind = kind;
        self.mask = mask | bit(self.lane);  // a lane always takes part in its own collective
        self.value = value;
        self.operand = operand;
        self.width = (width >= 1 && width <= 32 && (width & (width - 1)) == 0) ? width : 32;
        self.file = file;
        self.line = line;
        WarpState& warp = warps_[self.warp];
        warp.waiting |= bit(self.lane);
        if (kind != gpukit_sim::warp_activemask) try_complete_warp(self.warp, self.mask);
        wait(self);
        if (block_context_.who_base) [[unlikely]]
            update_race_who(self);
        return self.result;
    }

    // The kernel returned. While others wait at a barrier, check mode's tools hear of it: whether
    // the thread went past that barrier or returned before reaching it is theirs to judge.
    void returned(SimThread& self) {
        if (arrived_ == 0 || !check_hooks_.contains(check::Hook::return_during_barrier)) return;
        const void* last_access = stacks_.context(self.linear)->last_access;
        for (check::Tool* tool : launch_->checker->tools_for(check::Hook::return_during_barrier))
            tool->return_during_barrier(check_block_, self.idx, last_access, sync_site(*first_arrival_), arrived_);
    }

    [[noreturn]] void thread_exited(SimThread& self) {
        self.state = State::exited;
        --live_;
        warps_[self.warp].live &= ~bit(self.lane);
        warps_[self.warp].returned |= bit(self.lane);
        if (live_ == 0) leave_to_scheduler(self);
        if (arrived_ > 0 && arrived_ == live_) complete_block_barrier();
        retry_warp(self.warp);
        SimThread* next = next_runnable(self.linear);
        if (!next) leave_to_scheduler(self);  // deadlocked: the report is written
        switch_to(self, *next);
        std::abort();  // nothing resumes a thread that has returned
    }

    SimThread* current() const { return current_; }
    unsigned loop_first() const { return loop_first_; }

    [[noreturn]] void leave_loop() {
        StackPointer finished = nullptr;
        gpukit_sim_switch(&finished, scheduler_);
        std::abort();  // the loop's stack is not resumed
    }
    const BlockLaunch& launch() const { return *launch_; }

private:
    static std::chrono::steady_clock::duration watchdog() {
        static const auto seconds = [] {
            const char* value = std::getenv("GPUKIT_SIM_WATCHDOG_SECONDS");
            const double parsed = value && *value ? std::strtod(value, nullptr) : 10.0;
            return parsed > 0 ? parsed : 10.0;
        }();
        return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    }

    static bool always_fibers() {
        static const bool forced = [] {
            const char* value = std::getenv("GPUKIT_SIM_ALWAYS_FIBERS");
            return value && *value && *value != '0';
        }();
        return forced;
    }

    void run_fibers();
    void run_loop();

    // Every live thread waits at the barrier now. They become runnable by the generation moving
    // on (see runnable()), not one by one.
    void complete_block_barrier() {
        if (check_hooks_.contains(check::Hook::barrier_divergence)) [[unlikely]]
            report_divergence();
        arrived_ = 0;
        ++generation_;
        const unsigned next = generation_ & 1;
        count_[next] = 0;
        and_[next] = 1;
        or_[next] = 0;
    }

    SimThread& lane_thread(unsigned warp, unsigned lane) { return *threads_[warp * 32 + lane]; }

    // racecheck: who `t` is now, for the records its accesses leave (gpukit_sim::RaceRecord).
    void update_race_who(SimThread& t) {
        const auto field = [](unsigned long long value, unsigned shift, unsigned bits) {
            return (value & ((1ull << bits) - 1)) << shift;
        };
        t.thread_context->race_who =
            block_context_.who_base | field(t.linear, gpukit_sim::race_thread_shift, gpukit_sim::race_thread_bits) |
            field(generation_, gpukit_sim::race_block_generation_shift, gpukit_sim::race_block_generation_bits) |
            field(warps_[t.warp].generation, gpukit_sim::race_warp_generation_shift,
                  gpukit_sim::race_warp_generation_bits);
    }

    // Where `t` waits, as check mode's tools see it; the mask as the kernel passed it.
    static check::SyncSite sync_site(const SimThread& t) {
        return {t.idx, t.lane, t.file, t.line, t.kind, t.mask_without_self ? t.mask & ~bit(t.lane) : t.mask};
    }

    // Check mode: the threads the barrier releases that waited at another one than the first.
    void report_divergence() {
        const SimThread& first = *first_arrival_;
        for (const SimThread* t : threads_) {
            if (t->state != State::at_block_barrier ||
                (t->line == first.line && (t->file == first.file || std::strcmp(t->file, first.file) == 0)))
                continue;
            for (check::Tool* tool : launch_->checker->tools_for(check::Hook::barrier_divergence))
                tool->barrier_divergence(check_block_, sync_site(*t), sync_site(first));
        }
    }

    // Completes the collective of the lanes waiting with `mask` once every live lane of the mask
    // has arrived (lanes that returned count as arrived).
    void try_complete_warp(unsigned warp_index, unsigned mask) {
        WarpState& warp = warps_[warp_index];
        unsigned participants = 0;
        for (unsigned lanes = warp.waiting; lanes; lanes &= lanes - 1) {
            const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
            const SimThread& t = lane_thread(warp_index, lane);
            if (t.kind != gpukit_sim::warp_activemask && t.mask == mask) participants |= bit(lane);
        }
        const unsigned needed = mask & warp.live;
        if (participants == 0 || (participants & needed) != needed) return;
        complete_warp(warp_index, participants);
    }

    // After a lane returned: the collectives it was holding up may now complete.
    void retry_warp(unsigned warp_index) {
        unsigned tried = 0;
        for (unsigned lanes = warps_[warp_index].waiting; lanes; lanes &= lanes - 1) {
            const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
            const SimThread& t = lane_thread(warp_index, lane);
            if (t.kind == gpukit_sim::warp_activemask || (tried & bit(lane))) continue;
            tried |= t.mask;
            try_complete_warp(warp_index, t.mask);
        }
    }

    void complete_warp(unsigned warp_index, unsigned participants) {
        auto value_of = [&](unsigned lane) { return lane_thread(warp_index, lane).value; };
        unsigned ballot = 0;
        for (unsigned lanes = participants; lanes; lanes &= lanes - 1) {
            const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
            if (value_of(lane) != 0) ballot |= bit(lane);
        }
        for (unsigned lanes = participants; lanes; lanes &= lanes - 1) {
            const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
            SimThread& t = lane_thread(warp_index, lane);
            const unsigned width = static_cast<unsigned>(t.width);
            const unsigned segment = lane & ~(width - 1);
            auto from_lane = [&](long source, bool inside) -> std::uint64_t {
                if (!inside || source < 0 || source > 31) return t.value;
                if (!(participants & bit(static_cast<unsigned>(source)))) {
                    if ((warps_[warp_index].returned & bit(static_cast<unsigned>(source))) &&
                        (t.mask & bit(static_cast<unsigned>(source))) &&
                        check_hooks_.contains(check::Hook::returned_lane_read)) [[unlikely]]
                        for (check::Tool* tool : launch_->checker->tools_for(check::Hook::returned_lane_read))
                            tool->returned_lane_read(check_block_, sync_site(t), static_cast<unsigned>(source));
                    return t.value;
                }
                return value_of(static_cast<unsigned>(source));
            };
            switch (t.kind) {
                case gpukit_sim::warp_shfl: {
                    const unsigned offset = static_cast<unsigned>(t.operand) & (width - 1);
                    t.result = from_lane(segment + offset, true);
                    break;
                }
                case gpukit_sim::warp_shfl_up:
                    t.result = from_lane(static_cast<long>(lane) - t.operand,
                                         (lane - segment) >= static_cast<unsigned>(t.operand));
                    break;
                case gpukit_sim::warp_shfl_down:
                    t.result = from_lane(static_cast<long>(lane) + t.operand,
                                         (lane - segment) + static_cast<unsigned>(t.operand) < width);
                    break;
                case gpukit_sim::warp_shfl_xor: {
                    const unsigned source = lane ^ static_cast<unsigned>(t.operand);
                    t.result = from_lane(source, (source & ~(width - 1)) == segment);
                    break;
                }
                case gpukit_sim::warp_ballot: t.result = ballot; break;
                case gpukit_sim::warp_any: t.result = ballot != 0; break;
                case gpukit_sim::warp_all: t.result = (ballot & participants) == participants; break;
                case gpukit_sim::warp_match_any: {
                    unsigned same = 0;
                    for (unsigned others = participants; others; others &= others - 1) {
                        const unsigned other = static_cast<unsigned>(__builtin_ctz(others));
                        if (value_of(other) == t.value) same |= bit(other);
                    }
                    t.result = same;
                    break;
                }
                case gpukit_sim::warp_match_all: {
                    bool all_equal = true;
                    for (unsigned others = participants; others; others &= others - 1)
                        all_equal &= value_of(static_cast<unsigned>(__builtin_ctz(others))) == t.value;
                    t.result = all_equal ? participants : 0;
                    break;
                }
                case gpukit_sim::warp_reduce_add:
                case gpukit_sim::warp_reduce_min:
                case gpukit_sim::warp_reduce_max:
                case gpukit_sim::warp_reduce_and:
                case gpukit_sim::warp_reduce_or:
                case gpukit_sim::warp_reduce_xor:
                    t.result = reduce(t.kind, t.operand != 0, warp_index, participants);
                    break;
                default: t.result = 0; break;  // __syncwarp
            }
        }
        for (unsigned lanes = participants; lanes; lanes &= lanes - 1)
            lane_thread(warp_index, static_cast<unsigned>(__builtin_ctz(lanes))).state = State::ready;
        warps_[warp_index].waiting &= ~participants;
        ++warps_[warp_index].generation;
    }

    std::uint64_t reduce(int kind, bool is_signed, unsigned warp_index, unsigned participants) {
        std::uint32_t acc = 0;
        bool first = true;
        for (unsigned lanes = participants; lanes; lanes &= lanes - 1) {
            const auto v =
                static_cast<std::uint32_t>(lane_thread(warp_index, static_cast<unsigned>(__builtin_ctz(lanes))).value);
            if (first) {
                acc = v;
                first = false;
                continue;
            }
            switch (kind) {
                case gpukit_sim::warp_reduce_add: acc += v; break;
                case gpukit_sim::warp_reduce_min:
                    acc = is_signed ? static_cast<std::uint32_t>(
                                          std::min(static_cast<std::int32_t>(acc), static_cast<std::int32_t>(v)))
                                    : std::min(acc, v);
                    break;
                case gpukit_sim::warp_reduce_max:
                    acc = is_signed ? static_cast<std::uint32_t>(
                                          std::max(static_cast<std::int32_t>(acc), static_cast<std::int32_t>(v)))
                                    : std::max(acc, v);
                    break;
                case gpukit_sim::warp_reduce_and: acc &= v; break;
                case gpukit_sim::warp_reduce_or: acc |= v; break;
                default: acc ^= v; break;
            }
        }
        return acc;
    }

    // When nothing can run: lanes waiting in __activemask have converged with every lane that
    // could reach them; answer them. Returns a thread that can run now, or null.
    SimThread* resolve_stall(unsigned after) {
        bool resolved = false;
        for (unsigned w = 0; w < warps_.size(); ++w) {
            unsigned group = 0;
            for (unsigned lanes = warps_[w].waiting; lanes; lanes &= lanes - 1) {
                const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
                if (lane_thread(w, lane).kind == gpukit_sim::warp_activemask) group |= bit(lane);
            }
            if (!group) continue;
            for (unsigned lanes = group; lanes; lanes &= lanes - 1) {
                SimThread& t = lane_thread(w, static_cast<unsigned>(__builtin_ctz(lanes)));
                t.result = group;
                t.state = State::ready;
            }
            warps_[w].waiting &= ~group;
            ++warps_[w].generation;
            resolved = true;
        }
        return resolved ? next_ready_from(after) : nullptr;
    }

    [[gnu::always_inline]] SimThread* next_ready_from(unsigned after) {
        // The ring order: usually the very next thread is ready, so stay off division.
        SimThread* const* const first = threads_.data();
        SimThread* const* const end = first + threads_.size();
        for (SimThread* const* t = first + after + 1; t < end; ++t)
            if (runnable(**t)) return *t;
        for (SimThread* const* t = first; t <= first + after; ++t)
            if (runnable(**t)) return *t;
        return nullptr;
    }

    // The next thread that can run, or null after writing the deadlock report.
    [[gnu::always_inline]] SimThread* next_runnable(unsigned after) {
        if (SimThread* next = next_ready_from(after)) [[likely]]
            return next;
        return next_runnable_after_stall(after);
    }

    [[gnu::noinline, gnu::cold]] SimThread* next_runnable_after_stall(unsigned after) {
        if (SimThread* next = resolve_stall(after)) return next;
        write_deadlock_report();
        return nullptr;
    }

    // Ready, or waiting at a block barrier that has completed since.
    bool runnable(const SimThread& t) const {
        return t.state == State::ready || (t.state == State::at_block_barrier && t.generation != generation_);
    }

    [[gnu::always_inline]] void wait(SimThread& self) {
        while (!runnable(self)) {
            SimThread* next = next_runnable(self.linear);
            if (!next) [[unlikely]]
                leave_to_scheduler(self);
            if (next == &self) break;
            switch_to(self, *next);
        }
    }

    [[gnu::always_inline]] void switch_to(SimThread& self, SimThread& next) {
        current_ = &next;
        // The thread after `next` is usually the one `next` hands over to: start fetching its
        // record and saved registers now, while `next` runs.
        const unsigned after = next.linear + 1 < threads_.size() ? next.linear + 1 : 0;
        const SimThread* following = threads_[after];
        __builtin_prefetch(following);
        __builtin_prefetch(following->context);
        gpukit_sim_switch(&self.context, next.context);
    }

    [[noreturn]] void leave_to_scheduler(SimThread& self) {
        gpukit_sim_switch(&self.context, scheduler_);
        std::abort();  // the scheduler never resumes a thread that left it
    }

    void write_deadlock_report();

    // The KernelFaultError of the thread that ended the launch, on the worker's own stack (finding
    // the source line of abort() and exit() runs addr2line).
    [[noreturn]] void throw_fault() {
        const PendingFault pending = std::move(*fault_);
        fault_.reset();
        FaultSite site;
        site.kernel = launch_->kernel->name;
        site.block = Dim3(block_idx_.x, block_idx_.y, block_idx_.z);
        site.thread = Dim3(pending.thread.x, pending.thread.y, pending.thread.z);
        site.thread_known = pending.thread_known;
        site.file = pending.file;
        site.line = pending.line;
        site.function = pending.function;
        if (site.file.empty() && pending.pc) {
            const auto where = launch_->module->source_of(pending.pc);
            site.file = where.file;
            site.line = where.line;
            if (site.function.empty()) site.function = where.function;
        }
        switch (pending.kind) {
            case gpukit_sim::fault_assertion: throw kernel_fault(FaultKind::assertion, std::move(site), pending.text);
            case gpukit_sim::fault_abort:
                throw kernel_fault(FaultKind::abort, std::move(site), concat("called ", pending.text));
            case gpukit_sim::fault_exit:
                throw kernel_fault(FaultKind::exit, std::move(site),
                                   concat("called ", pending.text.substr(0, pending.text.size() - 1), pending.value,
                                          "), which a kernel cannot do: the process goes on"));
            default: throw kernel_fault(FaultKind::trap, std::move(site), concat("called ", pending.text));
        }
    }

    struct PendingFault {
        int kind = 0;
        std::string text, file, function;
        int line = 0;
        long value = 0;
        const void* pc = nullptr;
        bool thread_known = false;
        Index3 thread{};
    };
    std::optional<PendingFault> fault_;

    const BlockLaunch* launch_ = nullptr;
    Index3 block_idx_{};
    gpukit_sim::BlockContext block_context_{};
    check::BlockSite check_block_;  // check mode: the block as the tools see it, and what they keep on this worker
    check::Hooks check_hooks_;      // check mode: the hooks the launch's tools take
    std::uintptr_t stack_bytes_ = simulated_stack_bytes();
    unsigned loop_first_ = 0;               // loop mode: the thread the loop starts at
    unsigned loop_resume_at_ = 0;           // check mode: where the loop starts again after a stopped thread
    unsigned loop_thread_ = ~0u;            // check mode: the thread whose access was judged last
    check::ThreadState loop_thread_check_;  // and what the tools keep for it
    std::exception_ptr failure_;
    std::uint64_t solo_yields_ = 0;
    std::chrono::steady_clock::time_point spin_started_{};
    FiberStacks stacks_;
    std::vector<SimThread*> threads_;  // each lives next to its stack's context (FiberStacks::record)
    std::vector<WarpState> warps_;
    unsigned live_ = 0;
    unsigned arrived_ = 0;
    unsigned generation_ = 0;
    int count_[2] = {0, 0};
    int and_[2] = {1, 1};
    int or_[2] = {0, 0};
    StackPointer scheduler_ = nullptr;
    SimThread* current_ = nullptr;
    SimThread* first_arrival_ = nullptr;  // the first thread waiting at the current block barrier
    std::string deadlock_;
};

thread_local Block this_block;

void fiber_main(void* thread) {
    SimThread& self = *static_cast<SimThread*>(thread);
    Block& block = *self.block;
    try {
        block.launch().kernel->record->run_thread(block.launch().args);
        block.returned(self);
    } catch (...) {
        block.record_failure(std::current_exception());  // an exception must not leave a fiber
    }
    block.thread_exited(self);
}

// Loop mode still runs on a simulated thread's stack, where the kernel finds its context.
void loop_main(void* block_pointer) {
    Block& block = *static_cast<Block*>(block_pointer);
    try {
        block.launch().kernel->record->run_block_loop(block.launch().args, block.loop_first());
    } catch (...) {
        block.record_failure(std::current_exception());
    }
    block.leave_loop();
}

void Block::run_loop() {
    const Index3 dim = launch_->block;
    const unsigned n = dim.x * dim.y * dim.z;
    loop_first_ = 0;
    loop_thread_ = ~0u;
    while (loop_first_ < n) {
        gpukit_sim::ThreadContext* context = stacks_.context(0);
        context->thread_idx = {0, 0, 0};
        context->thread = nullptr;
        context->block = &block_context_;
        context->last_access = nullptr;
        current_ = nullptr;
        loop_resume_at_ = n;  // unless check mode stops a thread
        gpukit_sim_switch(&scheduler_, make_context(stacks_.top(0), loop_main, this));
        loop_first_ = loop_resume_at_;
    }
}

void Block::run_fibers() {
    const Index3 dim = launch_->block;
    const unsigned n = dim.x * dim.y * dim.z;
    threads_.resize(n);
    warps_.assign((n + 31) / 32, WarpState{});
    for (unsigned i = 0; i < n; ++i) {
        static_assert(sizeof(SimThread) <= FiberStacks::record_bytes && std::is_trivially_destructible_v<SimThread>);
        SimThread& t = *(threads_[i] = new (stacks_.record(i)) SimThread{});
        t.block = this;
        t.linear = i;
        t.lane = static_cast<std::uint8_t>(i % 32);
        t.warp = i / 32;
        t.idx = Index3{i % dim.x, (i / dim.x) % dim.y, i / (dim.x * dim.y)};
        gpukit_sim::ThreadContext* context = stacks_.context(i);
        context->thread_idx = t.idx;
        context->thread = &t;
        context->block = &block_context_;
        context->last_access = nullptr;
        t.thread_context = context;
        t.context = make_context(stacks_.top(i), fiber_main, &t);
        warps_[t.warp].live |= bit(t.lane);
    }
    live_ = n;
    arrived_ = 0;
    generation_ = 0;
    count_[0] = or_[0] = 0;
    and_[0] = 1;
    if (block_context_.who_base)
        for (SimThread* t : threads_) update_race_who(*t);
    current_ = threads_[0];
    gpukit_sim_switch(&scheduler_, threads_[0]->context);
}

std::string describe_wait(const SimThread& t) {
    std::string site = concat(" at ", t.file ? t.file : "?", ":", t.line);
    if (t.state == State::at_block_barrier) {
        static const char* const names[] = {"__syncthreads()", "__syncthreads_count()", "__syncthreads_and()",
                                            "__syncthreads_or()"};
        return concat("wait at ", names[t.kind & 3], site);
    }
    static const char* const names[] = {
        "__syncwarp",        "__shfl_sync",       "__shfl_up_sync",    "__shfl_down_sync", "__shfl_xor_sync",
        "__ballot_sync",     "__any_sync",        "__all_sync",        "__activemask",     "__reduce_add_sync",
        "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
        "__match_any_sync",  "__match_all_sync"};
    char mask[16];
    std::snprintf(mask, sizeof mask, "0x%08x", t.mask);
    return concat("wait at ", t.kind >= 0 && t.kind <= 16 ? names[t.kind] : "a warp collective", "(mask ", mask, ")",
                  site);
}

void Block::write_deadlock_report() {
    std::string report = concat("Kernel ", launch_->kernel->name, " cannot finish block ", "(", block_idx_.x, ", ",
                                block_idx_.y, ", ", block_idx_.z,
                                "): no thread can proceed (a barrier some live "
                                "thread can never reach).");
    std::string previous;
    unsigned first = 0;
    auto flush = [&](unsigned end) {
        if (previous.empty()) return;
        report +=
            first + 1 == end ? concat("\n  thread ", first, " ") : concat("\n  threads ", first, "-", end - 1, " ");
        report += previous;
    };
    for (unsigned i = 0; i <= threads_.size(); ++i) {
        std::string what;
        if (i < threads_.size()) {
            const SimThread& t = *threads_[i];
            what = t.state == State::exited  ? "have returned"
                   : t.state == State::ready ? "are running"
                                             : describe_wait(t);
        }
        if (what != previous) {
            flush(i);
            previous = what;
            first = i;
        }
    }
    deadlock_ = report;
}

// ---- the hooks kernels call

int hook_block_barrier(void* thread, int kind, int predicate, const char* file, int line) {
    auto& self = *static_cast<SimThread*>(thread);
    return self.block->block_barrier(self, kind, predicate, file, line);
}

unsigned long long hook_warp_collective(void* thread, int kind, unsigned mask, unsigned long long value, int operand,
                                        int width, const char* file, int line) {
    auto& self = *static_cast<SimThread*>(thread);
    return self.block->warp_collective(self, kind, mask, value, operand, width, file, line);
}

void hook_yield(void* thread) {
    if (thread)
        static_cast<SimThread*>(thread)->block->yield(static_cast<SimThread*>(thread));
    else
        this_block.yield(nullptr);  // loop mode: only the watchdog
}

void hook_access(gpukit_sim::ThreadContext* context, const void* address, unsigned long size, unsigned flags,
                 const void* pc) {
    if (!context->thread) return running_block_object->check_loop_access(*context, address, size, flags, pc);
    auto& self = *static_cast<SimThread*>(context->thread);
    self.block->check_access(self, *context, address, size, flags, pc);
}

[[noreturn]] void hook_fault(int kind, const char* text, const char* file, int line, const char* function, long value,
                             const void* pc) {
    this_block.fault(kind, text, file, line, function, value, pc, __builtin_frame_address(0));
}

void hook_barrier_in_loop_mode(const char* what, const char* file, int line) {
    // The static analysis missed a path to a synchronising built-in: a bug in gpukit, not in
    // the kernel. Say so, and how to run anyway.
    throw LaunchError(concat("gpukit simulator internal error: ", what, " at ", file, ":", line,
                             " was reached by a kernel judged never to synchronise. Please report this; "
                             "GPUKIT_SIM_ALWAYS_FIBERS=1 runs every kernel in the synchronising mode meanwhile"));
}

const gpukit_sim::RuntimeHooks hooks{gpukit_sim::kAbiVersion,
                                     hook_block_barrier,
                                     hook_warp_collective,
                                     hook_barrier_in_loop_mode,
                                     hook_yield,
                                     hook_access,
                                     hook_fault};

}  // namespace

void run_block(const BlockLaunch& launch, Index3 block_idx) { this_block.run(launch, block_idx); }

const gpukit_sim::RuntimeHooks& runtime_hooks() { return hooks; }

const RunningBlock* running_block() noexcept { return running_valid ? &running : nullptr; }

bool is_fiber_stack_guard(const void* address) noexcept { return this_block.stacks().is_guard_page(address); }

const gpukit_sim::ThreadContext* thread_context_of(const void* stack_address) noexcept {
    return this_block.stacks().context_of(stack_address);
}

}  // namespace gpukit::detail::sim
