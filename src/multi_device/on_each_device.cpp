// src/multi_device/on_each_device.cpp: one host thread per device, failures gathered and raised
// once every thread has finished (a failure never leaves another device's work running unseen).
#include "multi_device/on_each_device.hpp"

#include <exception>
#include <optional>
#include <thread>
#include <vector>

#include "gpukit/current_stream.hpp"
#include "gpukit/multi_device.hpp"
#include "util/text.hpp"

namespace gpukit::multi_device {

PartFailedError::PartFailedError(const std::string& message, std::size_t part, int device, std::exception_ptr cause,
                                 std::size_t failures)
    : Error(message), part_(part), device_(device), cause_(std::move(cause)), failures_(failures) {}

namespace detail {
namespace {

std::string what_of(const std::exception_ptr& failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "an exception that is not a std::exception";
    }
}

}  // namespace

void on_each_device(std::span<const Device> devices, const std::function<void(std::size_t)>& work,
                    std::string_view action, const std::function<std::string(std::size_t)>& describe) {
    std::vector<std::exception_ptr> failures(devices.size());
    // The caller's streams, taken here: a new thread's current stream would be the default one.
    std::vector<StreamRef> streams;
    streams.reserve(devices.size());
    for (const Device& device : devices) streams.push_back(current_stream(device));
    auto run = [&](std::size_t i) {
        try {
            const DeviceScope device(devices[i]);
            const StreamScope stream(streams[i]);
            work(i);
        } catch (...) {
            failures[i] = std::current_exception();
        }
    };
    if (devices.size() == 1) {
        run(0);
    } else {
        std::vector<std::thread> threads;
        threads.reserve(devices.size());
        try {
            for (std::size_t i = 0; i < devices.size(); ++i) threads.emplace_back(run, i);
        } catch (...) {  // no thread to be had: the rest run here, one after another
            for (std::size_t i = threads.size(); i < devices.size(); ++i) run(i);
        }
        for (std::thread& thread : threads) thread.join();
    }
    std::optional<std::size_t> first;
    std::size_t count = 0;
    for (std::size_t i = 0; i < failures.size(); ++i) {
        if (!failures[i]) continue;
        ++count;
        if (!first) first = i;
    }
    if (!first) return;
    const std::size_t i = *first;
    std::string message = gpukit::detail::concat(action, ": the work on ", devices[i].describe(), " for ", describe(i),
                                                 " failed: ", what_of(failures[i]));
    if (count > 1) message += gpukit::detail::concat(" (and on ", count - 1, " more device", count > 2 ? "s" : "", ")");
    throw PartFailedError(message, i, devices[i].ordinal(), failures[i], count);
}

}  // namespace detail
}  // namespace gpukit::multi_device
