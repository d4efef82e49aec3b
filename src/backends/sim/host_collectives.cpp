// src/backends/sim/host_collectives.cpp: the simulator's collectives (host_collectives.hpp).
//
// Device memory is host memory here, so a collective is host work: the reduction or the copies,
// run once every rank's stream has reached the collective. It is put on the streams so that no
// stream thread ever waits for work queued behind it (the simulator's devices share one legacy
// default stream, and work on a blocking stream waits for it): a non-blocking "arrived" mark on
// every rank's stream but the first, then the work itself on the first, which waits for the
// marks, then on the other streams a wait for the work to end. One thread puts them all on the
// streams, in that order: the caller for one process over several devices; the last rank to
// call for ranks that are threads (the earlier ones wait on the host until it has, which also
// checks that they all called the same collective, before anything is enqueued).
//
// Nothing waits for ever: a rank's stream that skips the mark (an earlier error stops it) fails
// the collective at once; every wait ends at the communicator's timeout, or when the device's
// work is given up (an interrupted synchronize); a rank that leaves (its communicator destroyed
// or aborted) fails what the others wait in. The failure is then raised on every rank's stream.
#include "backends/sim/host_collectives.hpp"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <vector>

#include "backends/sim/host_reduction.hpp"
#include "backends/sim/sim_streams.hpp"
#include "gpukit/device.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto wait_slice = std::chrono::milliseconds(50);

// ---- how long a wait may last
struct Limit {
    std::optional<Clock::time_point> deadline;
    double seconds = 0;

    static Limit from(const CollectiveOptions& options, int multiple = 1) {
        if (!options.timeout) return {};
        const auto span = options.timeout->count() * multiple;
        return {Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(span)), span};
    }
    bool passed() const { return deadline && Clock::now() >= *deadline; }
};

// ---- ids: this process's, so that a rank of another process is refused rather than left waiting
constexpr char id_tag[16] = "gpukit-sim-coll";

struct IdFields {
    char tag[16];
    std::uint64_t pid;
    std::uint64_t nonce;  // tells apart processes that reuse a pid
    std::uint64_t serial;
};
static_assert(sizeof(IdFields) <= unique_id_bytes);

std::uint64_t process_nonce() {
    static const std::uint64_t nonce = [] {
        std::random_device random;
        return (static_cast<std::uint64_t>(random()) << 32) ^ random() ^
               static_cast<std::uint64_t>(Clock::now().time_since_epoch().count());
    }();
    return nonce;
}

IdFields fields_of(const UniqueIdBytes& id) {
    IdFields fields{};
    std::memcpy(&fields, id.data(), sizeof fields);
    return fields;
}

// ---- one collective's work on the ranks' streams
class CollectiveRun {
public:
    CollectiveRun(std::string what, std::size_t marks) : what_(std::move(what)), marks_(marks) {}

    const std::string& what() const { return what_; }

    void arrive() {
        std::lock_guard lock(mutex_);
        --marks_;
        changed_.notify_all();
    }
    // The first failure wins; the collective is then over.
    void fail(const std::string& why) {
        std::lock_guard lock(mutex_);
        if (failure_.empty()) failure_ = concat("Failed to run ", what_, ": ", why);
        done_ = true;
        changed_.notify_all();
    }
    void finish() {
        std::lock_guard lock(mutex_);
        done_ = true;
        changed_.notify_all();
    }

    // The work's wait for every mark; empty when they all came, else why not (and the run failed).
    std::string wait_for_marks(const CollectiveOptions& options) {
        return wait(
            options, 1, [this] { return marks_ == 0 || !failure_.empty(); }, "the other ranks' streams");
    }
    // The other streams' wait for the work; empty when it succeeded, else why not.
    std::string wait_until_done(const CollectiveOptions& options) {
        // Twice the timeout: the work itself waits up to one for the marks first.
        return wait(
            options, 2, [this] { return done_; }, "the collective's work on another rank's stream");
    }

private:
    template <class Ready>
    std::string wait(const CollectiveOptions& options, int multiple, Ready ready, const char* for_what) {
        const auto given_up = StreamScheduler::given_up_check();
        const Limit limit = Limit::from(options, multiple);
        std::unique_lock lock(mutex_);
        while (!changed_.wait_for(lock, wait_slice, ready)) {
            if (given_up && given_up()) {
                lock.unlock();
                fail("the device's work was given up (an interrupted or timed-out synchronize)");
                lock.lock();
            } else if (limit.passed()) {
                lock.unlock();
                fail(concat("waited ", limit.seconds, " s for ", for_what, " (the communicator's timeout)"));
                lock.lock();
            }
        }
        return failure_;
    }

    std::string what_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t marks_;
    bool done_ = false;
    std::string failure_;
};

// Held by a piece of the run's work: work that a stream skips (an earlier error stops it) is
// destroyed without running, which fails the run at once instead of leaving the others waiting.
struct RunToken {
    std::shared_ptr<CollectiveRun> run;
    std::string stream;  // "rank 1's stream", for the message
    bool ran = false;
    RunToken(std::shared_ptr<CollectiveRun> run_, std::string stream_)
        : run(std::move(run_)), stream(std::move(stream_)) {}
    RunToken(const RunToken&) = delete;
    RunToken& operator=(const RunToken&) = delete;
    ~RunToken() {
        if (!ran)
            run->fail(concat(stream, " skipped it: an earlier error on that stream stops its work until reported"));
    }
};

std::byte* at(std::uint64_t address) { return reinterpret_cast<std::byte*>(address); }  // shared memory

// The collective itself, on the host, over every rank's buffers.
void execute(const CollectiveCall& call, std::span<const RankBuffers> ranks, const HostQueue& queue) {
    const std::size_t n = ranks.size();
    const std::size_t bytes = call.count * collective_type_size(call.type);
    const auto wrote = [&](std::uint64_t address, std::size_t size) {
        if (queue.wrote && size > 0) queue.wrote(address, size);
    };
    const auto move = [](std::byte* to, const std::byte* from, std::size_t size) {
        if (to != from && size > 0) std::memmove(to, from, size);
    };
    std::vector<const std::byte*> sources(n);
    std::vector<std::byte*> targets;
    switch (call.kind) {
        case CollectiveKind::all_reduce:
        case CollectiveKind::reduce: {
            for (std::size_t r = 0; r < n; ++r) sources[r] = at(ranks[r].send);
            if (call.kind == CollectiveKind::all_reduce)
                for (const auto& rank : ranks) targets.push_back(at(rank.receive));
            else
                targets.push_back(at(ranks[static_cast<std::size_t>(call.root)].receive));
            reduce_elements(call.type, call.op, sources, targets, call.count);
            for (std::byte* target : targets) wrote(reinterpret_cast<std::uint64_t>(target), bytes);
            break;
        }
        case CollectiveKind::broadcast: {
            const auto& root = ranks[static_cast<std::size_t>(call.root)];
            for (std::size_t r = 0; r < n; ++r)
                if (r != static_cast<std::size_t>(call.root)) move(at(ranks[r].receive), at(root.send), bytes);
            move(at(root.receive), at(root.send), bytes);
            for (const auto& rank : ranks) wrote(rank.receive, bytes);
            break;
        }
        case CollectiveKind::all_gather:
            // In place, rank k's part already sits at its place in its own output and is never written.
            for (const auto& rank : ranks) {
                for (std::size_t k = 0; k < n; ++k) move(at(rank.receive) + k * bytes, at(ranks[k].send), bytes);
                wrote(rank.receive, n * bytes);
            }
            break;
        case CollectiveKind::reduce_scatter:
            for (std::size_t r = 0; r < n; ++r) {
                for (std::size_t k = 0; k < n; ++k) sources[k] = at(ranks[k].send) + r * bytes;
                std::byte* target = at(ranks[r].receive);
                reduce_elements(call.type, call.op, sources, std::span<std::byte* const>(&target, 1), call.count);
                wrote(ranks[r].receive, bytes);
            }
            break;
    }
}

// Puts one collective over every rank (`ranks`, in rank order) on their streams (see the top).
void submit_collective(const HostQueue& queue, const CollectiveCall& call, std::span<const RankBuffers> ranks,
                       const CollectiveOptions& options, std::string what) {
    std::vector<NativeStream> streams;
    std::vector<std::string> names;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        auto found = std::find(streams.begin(), streams.end(), ranks[r].stream);
        if (found == streams.end()) {
            streams.push_back(ranks[r].stream);
            names.push_back(concat("the stream of rank ", r));
        } else {
            names[static_cast<std::size_t>(found - streams.begin())] += concat(" and rank ", r);
        }
    }
    auto run = std::make_shared<CollectiveRun>(std::move(what), streams.size() - 1);
    for (std::size_t s = 1; s < streams.size(); ++s)
        queue.submit(streams[s], [token = std::make_shared<RunToken>(run, names[s])] {
            token->ran = true;
            token->run->arrive();
        });
    queue.submit(streams[0], [token = std::make_shared<RunToken>(run, names[0]), call,
                              buffers = std::vector<RankBuffers>(ranks.begin(), ranks.end()), options, queue] {
        token->ran = true;
        CollectiveRun& work = *token->run;
        if (std::string failure = work.wait_for_marks(options); !failure.empty()) throw Error(failure);
        try {
            execute(call, buffers, queue);
        } catch (const std::exception& e) {
            work.fail(e.what());
            throw;
        }
        work.finish();
    });
    for (std::size_t s = 1; s < streams.size(); ++s)
        queue.submit(streams[s], [run, options] {
            if (std::string failure = run->wait_until_done(options); !failure.empty()) throw Error(failure);
        });
}

std::string describe(const CollectiveCall& call) {
    const bool reduces = call.kind != CollectiveKind::broadcast && call.kind != CollectiveKind::all_gather;
    const bool rooted = call.kind == CollectiveKind::reduce || call.kind == CollectiveKind::broadcast;
    return concat(to_string(call.kind), " of ", call.count, " ", to_string(call.type),
                  reduces ? concat(" (", to_string(call.op), ")") : std::string(),
                  rooted ? concat(" to/from root ", call.root) : std::string());
}

bool same_call(const CollectiveCall& a, const CollectiveCall& b) { return describe(a) == describe(b); }

// ---- one process over several devices
class HostGroupComm final : public CollectiveComm {
public:
    HostGroupComm(HostQueue queue, std::size_t size, CollectiveOptions options)
        : queue_(std::move(queue)), size_(size), options_(options) {}

    void enqueue(const CollectiveCall& call, std::span<const RankBuffers> buffers) override {
        raise_async_error();
        if (buffers.size() != size_)
            throw InvalidArgumentError(concat("A collective over ", size_, " ranks was given buffers for ",
                                              buffers.size(), " (a gpukit bug; please report it)"));
        submit_collective(queue_, call, buffers, options_,
                          concat(to_string(call.kind), " #", serial_++, " of a ", size_, "-rank communicator"));
    }
    void raise_async_error() override {
        std::lock_guard lock(mutex_);
        if (!aborted_.empty()) throw Error(concat("The communicator was aborted: ", aborted_));
    }
    void abort(const std::string& why) noexcept override {
        std::lock_guard lock(mutex_);
        if (aborted_.empty()) aborted_ = why.empty() ? "abort() was called" : why;
    }

private:
    HostQueue queue_;
    std::size_t size_;
    CollectiveOptions options_;
    std::uint64_t serial_ = 0;
    std::mutex mutex_;
    std::string aborted_;
};

// ---- ranks that are threads of this process, meeting by an id
struct Arrival {
    CollectiveCall call;
    RankBuffers buffers;
};

// The host rendezvous of one collective: the ranks' calls, until the last one has enqueued it.
struct Rendezvous {
    explicit Rendezvous(int size) : arrivals(static_cast<std::size_t>(size)) {}
    std::vector<std::optional<Arrival>> arrivals;
    int arrived = 0;
    bool launched = false;
    std::exception_ptr failure;
};

struct Clique {
    explicit Clique(int size_)
        : size(size_), joined(static_cast<std::size_t>(size_), false), left(static_cast<std::size_t>(size_), false) {}
    const int size;
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<bool> joined;
    std::vector<bool> left;
    std::string aborted;  // why; every call fails once set
    std::map<std::uint64_t, std::shared_ptr<Rendezvous>> rendezvous;

    int joined_count() const { return static_cast<int>(std::count(joined.begin(), joined.end(), true)); }
    std::string missing(const std::vector<bool>& present) const {
        std::string ranks;
        for (std::size_t r = 0; r < present.size(); ++r)
            if (!present[r]) ranks += concat(ranks.empty() ? "" : ", ", r);
        return ranks;
    }
    // Under the lock.
    void abort_locked(const std::string& why) {
        if (aborted.empty()) aborted = why;
        changed.notify_all();
    }
};

// Waits on `clique.changed` until `ready`, the clique is aborted, or the limit passes (returns
// false); the interrupt check (Ctrl-C in Python) ends it with WaitInterruptedError.
template <class Ready>
bool wait_on(Clique& clique, std::unique_lock<std::mutex>& lock, const Limit& limit, Ready ready) {
    while (!clique.changed.wait_for(lock, wait_slice, [&] { return ready() || !clique.aborted.empty(); })) {
        if (const auto check = wait_interrupt_check(); check && check())
            throw WaitInterruptedError("Waiting for the other ranks of a communicator was interrupted");
        if (limit.passed()) return false;
    }
    return true;
}

class Registry {
public:
    static Registry& instance() {
        static auto* registry = new Registry;  // never destroyed: ranks may outlive static destruction
        return *registry;
    }
    std::shared_ptr<Clique> find_or_add(const UniqueIdBytes& id, int size) {
        std::lock_guard lock(mutex_);
        std::erase_if(cliques_, [](const auto& entry) { return entry.second.expired(); });
        auto& slot = cliques_[id];
        auto clique = slot.lock();
        if (!clique) slot = clique = std::make_shared<Clique>(size);
        return clique;
    }

private:
    std::mutex mutex_;
    std::map<UniqueIdBytes, std::weak_ptr<Clique>> cliques_;
};

class HostRankComm final : public CollectiveComm {
public:
    HostRankComm(HostQueue queue, std::shared_ptr<Clique> clique, int rank, CollectiveOptions options)
        : queue_(std::move(queue)), clique_(std::move(clique)), rank_(rank), options_(options) {}

    ~HostRankComm() override {
        // A rank that goes fails what the others wait for it in, instead of leaving them waiting.
        std::lock_guard lock(clique_->mutex);
        clique_->left[static_cast<std::size_t>(rank_)] = true;
        clique_->changed.notify_all();
    }

    void enqueue(const CollectiveCall& call, std::span<const RankBuffers> buffers) override {
        if (buffers.size() != 1)
            throw InvalidArgumentError("A rank of a communicator takes one array per call (a gpukit bug)");
        Clique& clique = *clique_;
        const std::uint64_t serial = serial_++;
        const std::string what = concat(to_string(call.kind), " #", serial, " of a ", clique.size,
                                        "-rank communicator (on rank ", rank_, ")");
        std::unique_lock lock(clique.mutex);
        if (!clique.aborted.empty())
            throw Error(concat("Failed to run ", what, ": the communicator was aborted: ", clique.aborted));
        auto& entry = clique.rendezvous[serial];
        if (!entry) entry = std::make_shared<Rendezvous>(clique.size);
        const std::shared_ptr<Rendezvous> meeting = entry;
        meeting->arrivals[static_cast<std::size_t>(rank_)] = Arrival{call, buffers[0]};
        if (++meeting->arrived < clique.size) {
            const auto gone = [&] {  // a rank that left before calling this collective never will
                for (std::size_t r = 0; r < meeting->arrivals.size(); ++r)
                    if (!meeting->arrivals[r] && clique.left[r]) return concat("rank ", r, " left before calling it");
                return std::string();
            };
            wait_on(clique, lock, Limit::from(options_),
                    [&] { return meeting->launched || meeting->failure || !gone().empty(); });
            if (meeting->failure) std::rethrow_exception(meeting->failure);
            if (meeting->launched) return;
            if (!clique.aborted.empty())
                throw Error(concat("Failed to run ", what, ": the communicator was aborted: ", clique.aborted));
            if (std::string why = gone(); !why.empty()) {
                clique.abort_locked(concat(why, " (", to_string(call.kind), " #", serial, ")"));
                throw Error(concat("Failed to run ", what, ": ", why));
            }
            std::vector<bool> present;
            for (const auto& arrival : meeting->arrivals) present.push_back(arrival.has_value());
            const double seconds = options_.timeout ? options_.timeout->count() : 0;
            const std::string why = concat("rank(s) ", clique.missing(present), " did not call ", to_string(call.kind),
                                           " #", serial, " within ", seconds, " s (the communicator's timeout)");
            clique.abort_locked(why);
            throw WaitTimeoutError(concat("Failed to run ", what, ": ", why), seconds);
        }
        // The last rank: every rank's call is here. They must agree before anything is enqueued.
        clique.rendezvous.erase(serial);
        std::vector<RankBuffers> ranks;
        std::string calls;
        bool agree = true;
        for (std::size_t r = 0; r < meeting->arrivals.size(); ++r) {
            const Arrival& arrival = *meeting->arrivals[r];
            ranks.push_back(arrival.buffers);
            agree = agree && same_call(arrival.call, meeting->arrivals[0]->call);
            calls += concat(r == 0 ? "" : "; ", "rank ", r, ": ", describe(arrival.call));
        }
        if (!agree) {
            meeting->failure = std::make_exception_ptr(InvalidArgumentError(
                concat("Failed to run collective #", serial, " of a ", clique.size, "-rank communicator: the ranks ",
                       "called different collectives (", calls,
                       "). Every rank must call the same collective with the same count, dtype, op and root")));
            clique.changed.notify_all();
            std::rethrow_exception(meeting->failure);
        }
        lock.unlock();
        try {
            submit_collective(queue_, call, ranks, options_,
                              concat(to_string(call.kind), " #", serial, " of a ", clique.size, "-rank communicator"));
        } catch (...) {
            lock.lock();
            meeting->failure = std::current_exception();
            clique.changed.notify_all();
            throw;
        }
        lock.lock();
        meeting->launched = true;
        clique.changed.notify_all();
    }

    void raise_async_error() override {
        std::lock_guard lock(clique_->mutex);
        if (!clique_->aborted.empty()) throw Error(concat("The communicator was aborted: ", clique_->aborted));
    }

    void abort(const std::string& why) noexcept override {
        std::lock_guard lock(clique_->mutex);
        clique_->abort_locked(
            concat("rank ", rank_, " aborted the communicator", why.empty() ? std::string() : concat(": ", why)));
    }

private:
    HostQueue queue_;
    std::shared_ptr<Clique> clique_;
    int rank_;
    CollectiveOptions options_;
    std::uint64_t serial_ = 0;
};

class HostCollectives final : public CollectiveLibrary {
public:
    explicit HostCollectives(HostQueue queue) : queue_(std::move(queue)) {}

    std::string identity() const override { return "the simulator's host collectives"; }

    UniqueIdBytes create_unique_id() override {
        IdFields fields{};
        std::memcpy(fields.tag, id_tag, sizeof fields.tag);
        fields.pid = static_cast<std::uint64_t>(getpid());
        fields.nonce = process_nonce();
        fields.serial = next_serial_++;
        UniqueIdBytes id{};
        std::memcpy(id.data(), &fields, sizeof fields);
        return id;
    }

    std::unique_ptr<CollectiveComm> create_comm(std::span<const int> devices,
                                                const CollectiveOptions& options) override {
        return std::make_unique<HostGroupComm>(queue_, devices.size(), options);
    }

    std::unique_ptr<CollectiveComm> join(const UniqueIdBytes& id, int rank, int size, int device,
                                         const CollectiveOptions& options) override {
        static_cast<void>(device);  // every simulated device reaches the one memory
        if (size < 1 || rank < 0 || rank >= size)
            throw InvalidArgumentError(
                concat("Failed to join a communicator: rank ", rank, " is not a rank of ", size, " (0 to size - 1)"));
        const IdFields fields = fields_of(id);
        if (std::memcmp(fields.tag, id_tag, sizeof fields.tag) != 0)
            throw InvalidArgumentError(
                "Failed to join a communicator: the id was not made by the simulator's collectives (make it with "
                "UniqueId::create() on the simulator)");
        if (fields.pid != static_cast<std::uint64_t>(getpid()) || fields.nonce != process_nonce())
            throw BackendUnavailableError(
                concat("Failed to join a communicator as rank ", rank, ": its id was made by another process (pid ",
                       fields.pid,
                       "). The simulator's collectives join threads of one process only, since its devices' "
                       "memory is not shared between processes: run the ranks as threads, or on GPUs with NCCL"));
        const auto clique = Registry::instance().find_or_add(id, size);
        std::unique_lock lock(clique->mutex);
        const auto refuse = [&](const std::string& why) {
            clique->abort_locked(concat("rank ", rank, " could not join: ", why));
            throw InvalidArgumentError(concat("Failed to join a communicator as rank ", rank, ": ", why));
        };
        if (clique->size != size)
            refuse(
                concat("it says the communicator has ", size, " ranks where the ranks before it said ", clique->size));
        if (clique->joined[static_cast<std::size_t>(rank)]) refuse(concat("rank ", rank, " has joined already"));
        if (!clique->aborted.empty())
            throw Error(concat("Failed to join a communicator: it was aborted: ", clique->aborted));
        clique->joined[static_cast<std::size_t>(rank)] = true;
        clique->changed.notify_all();
        const bool in_time =
            wait_on(*clique, lock, Limit::from(options), [&] { return clique->joined_count() == clique->size; });
        if (!clique->aborted.empty())
            throw Error(concat("Failed to join a communicator as rank ", rank, ": it was aborted: ", clique->aborted));
        if (!in_time) {
            const std::string why = concat("rank(s) ", clique->missing(clique->joined), " did not join within ",
                                           options.timeout->count(), " s (the communicator's timeout)");
            clique->abort_locked(why);
            throw WaitTimeoutError(concat("Failed to join a communicator as rank ", rank, ": ", why),
                                   options.timeout->count());
        }
        lock.unlock();
        return std::make_unique<HostRankComm>(queue_, clique, rank, options);
    }

private:
    HostQueue queue_;
    std::atomic<std::uint64_t> next_serial_{0};
};

}  // namespace

std::unique_ptr<CollectiveLibrary> make_host_collectives(HostQueue queue) {
    return std::make_unique<HostCollectives>(std::move(queue));
}

}  // namespace gpukit::detail::sim
