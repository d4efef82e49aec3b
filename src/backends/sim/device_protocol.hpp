// src/backends/sim/device_protocol.hpp: what the host process and the simulator's device process
// share: one control block in a memfd both map, plain data only.
//
// Requests travel through slots. The host takes a free slot, writes the request into it and sets
// its state to `requested`; the device process's thread for that slot runs it, writes the reply
// and sets `replied`. Each side waits for the other by spinning a little first (a tiny launch is
// answered, and the next one posted, within microseconds: sooner than a sleeping thread wakes),
// then sleeping on the futex of the state word, saying so in the slot so that the other side
// wakes it: a launch answered while the host spins, while the device process's thread spins for
// it, costs no system call at all. Launch arguments and replies (module
// descriptions, hazards, errors) are serialised into the slot; module images, too large for a
// slot, are staged in device memory. A launch's reply is its LaunchResult (write_result); any
// other reply starts with its error (write_error: none, or why the request failed), then what it
// answers. A new request is a Request value, its writer in the host (DeviceProcess::request) and
// its case in the device process's serve().
//
// Check mode's view of allocations (which memory is allocated, what the host wrote) and which
// pages of device memory the device process may touch (device_memory.hpp: guard pages) change in
// the host and are read in the device process: the host appends to the journal, a ring the device
// process applies, in order, before each request up to the slot's journal_position.
//
// When the device process dies of a signal, its crash handler first fills `crash`: the host reads
// it after the process is gone and reports the fault.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "backends/sim/executor.hpp"

namespace gpukit::detail::sim::protocol {

constexpr std::uint64_t magic = 0x474b53494d444556ULL;  // "GKSIMDEV"
constexpr std::uint32_t version = 2;
constexpr unsigned slot_count = 16;
constexpr std::size_t request_bytes = std::size_t{64} * 1024;  // CUDA allows 32 KiB of parameters
constexpr std::size_t reply_bytes = std::size_t{1} << 20;
constexpr std::size_t journal_entries = std::size_t{1} << 16;

enum class Request : std::uint32_t { load = 1, reload = 2, unload = 3, launch = 4, drain_journal = 5 };
enum SlotState : std::uint32_t { idle = 0, requested = 1, replied = 2 };
enum ReadyState : std::uint32_t { starting = 0, serving = 1, failed = 2 };

// accessible / inaccessible: whole pages of device memory become readable and writable in the
// device process, or no longer.
enum class JournalKind : std::uint32_t {
    add = 1,
    add_written = 2,
    remove = 3,
    write = 4,
    accessible = 5,
    inaccessible = 6
};
struct JournalEntry {
    JournalKind kind;
    std::uint32_t unused;
    std::uint64_t address;
    std::uint64_t bytes;
};

// Filled by the device process's crash handler, async-signal-safely, before the process dies.
struct CrashRecord {
    std::atomic<std::uint32_t> claimed;  // the first faulting thread writes the rest
    std::int32_t signal;
    std::int32_t code;        // siginfo's si_code
    std::uint32_t tag;        // the slot of the launch that faulted
    std::uint32_t in_kernel;  // a simulated thread was running
    std::uint32_t thread_known;
    std::uint32_t stack_overflow;  // the address is a guard page below a simulated stack
    std::uint32_t block[3];
    std::uint32_t thread[3];
    std::uint64_t address;        // si_addr
    std::uint64_t module_offset;  // the faulting instruction in the launch's module's file
    std::uint32_t pc_in_module;
    char kernel[256];
};

struct Slot {
    std::atomic<std::uint32_t> state;  // SlotState; the futex both sides wait on
    // Whether the host's waiter (for `replied`) or the device process's (for `requested`) sleeps
    // on the futex, or may: post() wakes only then.
    std::atomic<std::uint32_t> host_sleeping;
    std::atomic<std::uint32_t> device_sleeping;
    Request request;
    std::atomic<std::uint64_t> blocks_done;  // a launch's progress, for time-limit reports
    std::uint32_t printed;                   // the request wrote to stdout or stderr: read them before going on
    std::uint64_t journal_position;          // apply the journal up to here before the request
    std::uint64_t request_size;
    std::uint64_t reply_size;
    alignas(64) unsigned char request_data[request_bytes];
    alignas(64) unsigned char reply_data[reply_bytes];
};

struct Control {
    std::uint64_t magic;
    std::uint32_t version;
    std::atomic<std::uint32_t> ready;  // ReadyState; a futex the host waits on at start
    std::int32_t pid;                  // in the sandbox: the process that runs the kernels (the spawned one's child)
    std::uint32_t sandbox_refused;     // it could not start because the system refuses the sandbox
    char directory[512];               // the device process's private directory (module files)
    char failure[1024];                // why it could not start
    CrashRecord crash;
    std::atomic<std::uint64_t> journal_head;  // the next entry the device process applies
    std::atomic<std::uint64_t> journal_tail;  // the next entry the host writes
    JournalEntry journal[journal_entries];
    Slot slots[slot_count];
};

// Blocks while *word == expected, for at most `timeout_ns` (negative: no limit). Across processes.
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected, long long timeout_ns);
void futex_wake(std::atomic<std::uint32_t>& word);

// How long a waiter spins before it sleeps (0 on a machine of one CPU, where spinning only keeps
// the other side from running).
long long spin_ns();
// Spins while `word` holds none of the states in `until`, for at most spin_ns(); its state then.
std::uint32_t spin(const std::atomic<std::uint32_t>& word, std::uint32_t until);
// Sleeps on `word` while it holds `expected`, for at most `timeout_ns` (negative: no limit), with
// `sleeping` set for the waker to see (post()).
void sleep_while(std::atomic<std::uint32_t>& word, std::uint32_t expected, std::atomic<std::uint32_t>& sleeping,
                 long long timeout_ns);
// Sets `word` to `value` and wakes its waiter if `sleeping` says it sleeps (or may be about to).
void post(std::atomic<std::uint32_t>& word, std::uint32_t value, std::atomic<std::uint32_t>& sleeping);

// ---- serialisation into a slot's buffers

class Writer {
public:
    Writer(unsigned char* buffer, std::size_t capacity) : buffer_(buffer), capacity_(capacity) {}
    void u64(std::uint64_t value);
    void text(std::string_view value);
    void bytes(const void* data, std::size_t size);
    // Overwrites the u64 written at byte `at` (a count known only later).
    void patch_u64(std::size_t at, std::uint64_t value);
    std::size_t size() const noexcept { return size_; }
    // False once something did not fit (the rest was dropped).
    bool complete() const noexcept { return !overflow_; }

private:
    unsigned char* buffer_;
    std::size_t capacity_;
    std::size_t size_ = 0;
    bool overflow_ = false;
};

class Reader {
public:
    Reader(const unsigned char* buffer, std::size_t size) : buffer_(buffer), size_(size) {}
    std::uint64_t u64();
    // A count of the things that follow, each at least `each` bytes: a count that cannot be what
    // is left is refused (a reply's word is not trusted with an allocation).
    std::uint64_t count(std::size_t each);
    std::string text();
    std::vector<unsigned char> bytes();
    // As bytes(), into `value` (its storage reused).
    void bytes_into(std::vector<unsigned char>& value);
    bool done() const noexcept { return at_ >= size_; }

private:
    void need(std::size_t bytes) const;
    const unsigned char* buffer_;
    std::size_t size_;
    std::size_t at_ = 0;
};

void write_module_info(Writer& out, const ModuleInfo& info);
ModuleInfo read_module_info(Reader& in);
void write_launch(Writer& out, const LaunchRequest& request);
// The request; its arguments are kept in `arguments` (their storage reused).
LaunchRequest read_launch(Reader& in, std::vector<std::vector<unsigned char>>& arguments);
// A launch's hazards and error (as many hazards as fit; a note says how many did not).
void write_result(Writer& out, const LaunchResult& result);
LaunchResult read_result(Reader& in);
// An exception from a request other than a launch: its type and message survive.
void write_error(Writer& out, const std::exception_ptr& error);
std::exception_ptr read_error(Reader& in);

}  // namespace gpukit::detail::sim::protocol
