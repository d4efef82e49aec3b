// src/backends/sim/device_protocol.cpp: futexes and the serialisation of requests and replies.
#include "backends/sim/device_protocol.hpp"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <thread>

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim::protocol {

static_assert(std::atomic<std::uint32_t>::is_always_lock_free && std::atomic<std::uint64_t>::is_always_lock_free,
              "the control block's atomics are shared between processes");
static_assert(sizeof(std::atomic<std::uint32_t>) == 4, "a futex word is 4 bytes");

#if defined(__GLIBCXX__) && defined(__x86_64__)
// A field added to Hazard must travel from the device process too: serialise it in write_result
// and read_result below, then update this size.
static_assert(sizeof(Hazard) == 296, "Hazard changed: update protocol::write_result and read_result");
#endif

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected, long long timeout_ns) {
    timespec timeout{};
    if (timeout_ns >= 0) {
        timeout.tv_sec = static_cast<time_t>(timeout_ns / 1000000000);
        timeout.tv_nsec = static_cast<long>(timeout_ns % 1000000000);
    }
    // Not FUTEX_PRIVATE_FLAG: the word is shared with another process.
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, expected,
            timeout_ns >= 0 ? &timeout : nullptr, nullptr, 0);
}

void futex_wake(std::atomic<std::uint32_t>& word) {
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, 1 << 30, nullptr, nullptr, 0);
}

long long spin_ns() {
    // Long enough for a tiny launch to come back, and for the next to come after it; short
    // enough not to matter next to a launch that takes longer. A sleeping thread is woken in
    // microseconds, tens of them where its CPU went idle (a virtual machine's vCPU halts): on a
    // 2-CPU VM a tiny launch took 37-59 us without the spin, 11-13 with it. Where other programs
    // keep every CPU busy the spinner competes with them (it yields between looks);
    // GPUKIT_SIM_SPIN_US=0 turns it off. Never on a machine of one CPU.
    static const long long spin = [] {
        const char* value = std::getenv("GPUKIT_SIM_SPIN_US");
        if (!value || !*value) return std::thread::hardware_concurrency() > 1 ? 50'000LL : 0LL;
        char* end = nullptr;
        const double us = std::strtod(value, &end);
        if (end == value || *end || !(us >= 0 && us <= 1e6))
            throw InvalidArgumentError(concat("GPUKIT_SIM_SPIN_US=", value,
                                              ": give the microseconds the simulator's processes spin for each "
                                              "other before they sleep, 0 to 1000000"));
        return static_cast<long long>(us * 1000);
    }();
    return spin;
}

namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

}  // namespace

std::uint32_t spin(const std::atomic<std::uint32_t>& word, std::uint32_t until) {
    std::uint32_t state = word.load(std::memory_order_acquire);
    if (state == until || spin_ns() == 0) return state;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(spin_ns());
    for (unsigned round = 1;; ++round) {
        // A few hundred pauses (a microsecond or two), then a yield between looks: on a machine
        // with more runnable threads than CPUs the spinner must not hold one that the other side
        // (or this process's other threads) could use.
        if (round < 256)
            cpu_relax();
        else
            sched_yield();
        state = word.load(std::memory_order_acquire);
        if (state == until) return state;
        if (round % 16 == 0 && std::chrono::steady_clock::now() > deadline) return state;
    }
}

void sleep_while(std::atomic<std::uint32_t>& word, std::uint32_t expected, std::atomic<std::uint32_t>& sleeping,
                 long long timeout_ns) {
    // Set before the state is read again (both sequentially consistent): either post() sees the
    // flag and wakes, or this sees its state and does not sleep.
    sleeping.store(1, std::memory_order_seq_cst);
    if (word.load(std::memory_order_seq_cst) == expected) futex_wait(word, expected, timeout_ns);
    sleeping.store(0, std::memory_order_relaxed);
}

void post(std::atomic<std::uint32_t>& word, std::uint32_t value, std::atomic<std::uint32_t>& sleeping) {
    word.store(value, std::memory_order_seq_cst);
    if (sleeping.load(std::memory_order_seq_cst) != 0) futex_wake(word);
}

void Writer::bytes(const void* data, std::size_t size) {
    if (overflow_ || capacity_ - size_ < size + sizeof(std::uint64_t)) {
        overflow_ = true;
        return;
    }
    const std::uint64_t length = size;
    std::memcpy(buffer_ + size_, &length, sizeof length);
    if (size) std::memcpy(buffer_ + size_ + sizeof length, data, size);
    size_ += sizeof length + size;
}

void Writer::u64(std::uint64_t value) {
    if (overflow_ || capacity_ - size_ < sizeof value) {
        overflow_ = true;
        return;
    }
    std::memcpy(buffer_ + size_, &value, sizeof value);
    size_ += sizeof value;
}

void Writer::text(std::string_view value) { bytes(value.data(), value.size()); }

void Writer::patch_u64(std::size_t at, std::uint64_t value) {
    if (at + sizeof value <= size_) std::memcpy(buffer_ + at, &value, sizeof value);
}

void Reader::need(std::size_t bytes) const {
    if (size_ - at_ < bytes)
        throw BackendUnavailableError(
            "gpukit internal error: a message from the simulator's device process is cut short");
}

std::uint64_t Reader::u64() {
    need(sizeof(std::uint64_t));
    std::uint64_t value;
    std::memcpy(&value, buffer_ + at_, sizeof value);
    at_ += sizeof value;
    return value;
}

std::uint64_t Reader::count(std::size_t each) {
    const std::uint64_t value = u64();
    if (value > (size_ - at_) / each)
        throw BackendUnavailableError(
            "gpukit internal error: a message from the simulator's device process counts more than it holds");
    return value;
}

std::string Reader::text() {
    const std::uint64_t length = u64();
    need(length);
    std::string value(reinterpret_cast<const char*>(buffer_ + at_), length);
    at_ += length;
    return value;
}

std::vector<unsigned char> Reader::bytes() {
    std::vector<unsigned char> value;
    bytes_into(value);
    return value;
}

void Reader::bytes_into(std::vector<unsigned char>& value) {
    const std::uint64_t length = u64();
    need(length);
    value.assign(buffer_ + at_, buffer_ + at_ + length);
    at_ += length;
}

namespace {

void write_dim(Writer& out, const Dim3& d) {
    out.u64(d.x);
    out.u64(d.y);
    out.u64(d.z);
}

Dim3 read_dim(Reader& in) {
    Dim3 d;
    d.x = static_cast<std::uint32_t>(in.u64());
    d.y = static_cast<std::uint32_t>(in.u64());
    d.z = static_cast<std::uint32_t>(in.u64());
    return d;
}

void write_hazard(Writer& out, const Hazard& h) {
    out.u64(static_cast<std::uint64_t>(h.tool));
    out.text(h.what);
    out.text(h.kernel);
    write_dim(out, h.block);
    write_dim(out, h.thread);
    out.text(h.file);
    out.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(h.line)));
    out.u64(h.address);
    out.u64(h.size);
    out.u64(h.is_write);
    out.text(h.detail);
    out.u64(h.occurrences);
    out.text(h.other_access);
    out.text(h.other_file);
    out.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(h.other_line)));
    write_dim(out, h.other_block);
    write_dim(out, h.other_thread);
}

Hazard read_hazard(Reader& in) {
    Hazard h;
    h.tool = static_cast<CheckTool>(in.u64());
    h.what = in.text();
    h.kernel = in.text();
    h.block = read_dim(in);
    h.thread = read_dim(in);
    h.file = in.text();
    h.line = static_cast<int>(static_cast<std::int64_t>(in.u64()));
    h.address = in.u64();
    h.size = in.u64();
    h.is_write = in.u64() != 0;
    h.detail = in.text();
    h.occurrences = in.u64();
    h.other_access = in.text();
    h.other_file = in.text();
    h.other_line = static_cast<int>(static_cast<std::int64_t>(in.u64()));
    h.other_block = read_dim(in);
    h.other_thread = read_dim(in);
    return h;
}

enum class ErrorType : std::uint64_t {
    none = 0,
    fault = 1,
    launch = 2,
    usage = 3,
    invalid_argument = 4,
    unavailable = 5,
    other = 6
};

}  // namespace

void write_error(Writer& out, const std::exception_ptr& error) {
    if (!error) return out.u64(static_cast<std::uint64_t>(ErrorType::none));
    try {
        std::rethrow_exception(error);
    } catch (const KernelFaultError& e) {
        out.u64(static_cast<std::uint64_t>(ErrorType::fault));
        out.text(e.what());
        out.u64(static_cast<std::uint64_t>(e.kind()));
        const FaultSite& site = e.site();
        out.text(site.kernel);
        write_dim(out, site.block);
        write_dim(out, site.thread);
        out.u64(site.thread_known);
        out.text(site.file);
        out.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(site.line)));
        out.text(site.function);
        out.u64(site.address);
    } catch (const LaunchError& e) {
        out.u64(static_cast<std::uint64_t>(ErrorType::launch));
        out.text(e.what());
    } catch (const UsageError& e) {
        out.u64(static_cast<std::uint64_t>(ErrorType::usage));
        out.text(e.what());
    } catch (const InvalidArgumentError& e) {
        out.u64(static_cast<std::uint64_t>(ErrorType::invalid_argument));
        out.text(e.what());
    } catch (const BackendUnavailableError& e) {
        out.u64(static_cast<std::uint64_t>(ErrorType::unavailable));
        out.text(e.what());
    } catch (const std::exception& e) {
        out.u64(static_cast<std::uint64_t>(ErrorType::other));
        out.text(e.what());
    } catch (...) {
        out.u64(static_cast<std::uint64_t>(ErrorType::other));
        out.text("an exception that is not a std::exception");
    }
}

std::exception_ptr read_error(Reader& in) {
    const auto type = static_cast<ErrorType>(in.u64());
    if (type == ErrorType::none) return nullptr;
    std::string message = in.text();
    switch (type) {
        case ErrorType::fault: {
            const auto kind = static_cast<FaultKind>(in.u64());
            FaultSite site;
            site.kernel = in.text();
            site.block = read_dim(in);
            site.thread = read_dim(in);
            site.thread_known = in.u64() != 0;
            site.file = in.text();
            site.line = static_cast<int>(static_cast<std::int64_t>(in.u64()));
            site.function = in.text();
            site.address = in.u64();
            return std::make_exception_ptr(KernelFaultError(kind, message, std::move(site)));
        }
        case ErrorType::launch: return std::make_exception_ptr(LaunchError(message));
        case ErrorType::usage: return std::make_exception_ptr(UsageError(message));
        case ErrorType::invalid_argument: return std::make_exception_ptr(InvalidArgumentError(message));
        case ErrorType::unavailable: return std::make_exception_ptr(BackendUnavailableError(message));
        default:
            // A C++ exception the kernel threw and did not catch (no GPU has them).
            return std::make_exception_ptr(LaunchError(concat("A kernel threw a C++ exception: ", message)));
    }
}

void write_module_info(Writer& out, const ModuleInfo& info) {
    out.u64(info.kernels.size());
    for (const auto& kernel : info.kernels) {
        out.text(kernel.name);
        out.u64(kernel.param_sizes.size());
        for (std::size_t i = 0; i < kernel.param_sizes.size(); ++i) {
            out.u64(kernel.param_sizes[i]);
            out.u64(kernel.param_offsets[i]);
        }
        out.u64(kernel.synchronises);
        out.u64(kernel.static_shared_bytes);
    }
    out.u64(info.globals.size());
    for (const auto& [name, global] : info.globals) {
        out.text(name);
        out.u64(global.address);
        out.u64(global.size);
    }
    out.u64(info.global_names.size());
    for (const auto& name : info.global_names) out.text(name);
    out.u64(info.check_tools);
}

ModuleInfo read_module_info(Reader& in) {
    ModuleInfo info;
    info.kernels.resize(in.count(4 * sizeof(std::uint64_t)));
    for (auto& kernel : info.kernels) {
        kernel.name = in.text();
        const auto params = in.count(2 * sizeof(std::uint64_t));
        for (std::uint64_t i = 0; i < params; ++i) {
            kernel.param_sizes.push_back(in.u64());
            kernel.param_offsets.push_back(in.u64());
        }
        kernel.synchronises = in.u64() != 0;
        kernel.static_shared_bytes = in.u64();
    }
    const auto globals = in.count(3 * sizeof(std::uint64_t));
    for (std::uint64_t i = 0; i < globals; ++i) {
        std::string name = in.text();
        GlobalInfo global;
        global.address = in.u64();
        global.size = in.u64();
        info.globals.emplace_back(std::move(name), global);
    }
    const auto names = in.count(sizeof(std::uint64_t));
    for (std::uint64_t i = 0; i < names; ++i) info.global_names.push_back(in.text());
    info.check_tools = static_cast<unsigned>(in.u64());
    return info;
}

void write_launch(Writer& out, const LaunchRequest& request) {
    out.u64(request.module);
    out.u64(request.kernel);
    out.u64(request.grid.x);
    out.u64(request.grid.y);
    out.u64(request.grid.z);
    out.u64(request.block.x);
    out.u64(request.block.y);
    out.u64(request.block.z);
    out.u64(request.shared_bytes);
    out.u64(request.arguments.size());
    for (const auto& value : request.arguments) out.bytes(value.data(), value.size());
}

LaunchRequest read_launch(Reader& in, std::vector<std::vector<unsigned char>>& arguments) {
    LaunchRequest request;
    request.module = in.u64();
    request.kernel = static_cast<unsigned>(in.u64());
    request.grid.x = static_cast<unsigned>(in.u64());
    request.grid.y = static_cast<unsigned>(in.u64());
    request.grid.z = static_cast<unsigned>(in.u64());
    request.block.x = static_cast<unsigned>(in.u64());
    request.block.y = static_cast<unsigned>(in.u64());
    request.block.z = static_cast<unsigned>(in.u64());
    request.shared_bytes = in.u64();
    arguments.resize(in.count(sizeof(std::uint64_t)));
    for (auto& value : arguments) in.bytes_into(value);
    request.arguments = arguments;
    return request;
}

void write_result(Writer& out, const LaunchResult& result) {
    write_error(out, result.error);
    out.u64(result.hazards.size());
    const std::size_t count_at = out.size();
    out.u64(0);  // how many follow: as many as fit
    std::uint64_t sent = 0;
    for (const auto& hazard : result.hazards) {
        Writer probe = out;
        write_hazard(probe, hazard);
        if (!probe.complete()) break;
        out = probe;
        ++sent;
    }
    out.patch_u64(count_at, sent);
}

LaunchResult read_result(Reader& in) {
    LaunchResult result;
    result.error = read_error(in);
    const auto total = in.u64();
    const auto sent = in.count(sizeof(std::uint64_t));
    for (std::uint64_t i = 0; i < sent; ++i) result.hazards.push_back(read_hazard(in));
    if (total > sent) {
        Hazard note;
        note.what = concat(total - sent, " more distinct hazards of this launch did not fit in the report");
        if (!result.hazards.empty()) note.kernel = result.hazards.front().kernel;
        result.hazards.push_back(std::move(note));
    }
    return result;
}

}  // namespace gpukit::detail::sim::protocol
