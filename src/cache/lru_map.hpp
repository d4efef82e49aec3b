// src/cache/lru_map.hpp: a map that keeps its most recently used entries within a bound in
// entries and in bytes, as the compile cache's in-process memo needs.
//
// Not thread-safe: the cache calls it under its mutex. Evicted values are handed back rather than
// destroyed, so that the caller can let go of them after unlocking (unloading a module may take a
// while, and may call back into the cache).
#pragma once

#include <cstdint>
#include <iterator>
#include <list>
#include <map>
#include <utility>
#include <vector>

namespace gpukit::detail {

template <class Key, class Value>
class LruMap {
public:
    // The value for `key`, which becomes the most recently used; null when absent.
    Value* find(const Key& key) {
        const auto found = index_.find(key);
        if (found == index_.end()) return nullptr;
        order_.splice(order_.begin(), order_, found->second);
        return &found->second->value;
    }

    // Stores `value` of `bytes` for `key` as the most recently used, unless `key` is present: then
    // the value already there is kept (another thread stored it first). Returns the stored value.
    Value& emplace(const Key& key, Value value, std::uint64_t bytes) {
        if (Value* existing = find(key)) return *existing;
        order_.push_front(Entry{key, std::move(value), bytes});
        index_.emplace(key, order_.begin());
        bytes_ += bytes;
        return order_.front().value;
    }

    // Moves the least recently used values into `evicted` until at most `max_entries` entries of
    // at most `max_bytes` together remain. Returns how many it evicted.
    std::uint64_t trim(std::uint64_t max_entries, std::uint64_t max_bytes, std::vector<Value>& evicted) {
        std::uint64_t count = 0;
        while (!order_.empty() && (order_.size() > max_entries || bytes_ > max_bytes)) {
            Entry& last = order_.back();
            bytes_ -= last.bytes;
            evicted.push_back(std::move(last.value));
            index_.erase(last.key);
            order_.pop_back();
            ++count;
        }
        return count;
    }

    // Moves every value into `evicted`.
    void clear(std::vector<Value>& evicted) {
        for (Entry& entry : order_) evicted.push_back(std::move(entry.value));
        order_.clear();
        index_.clear();
        bytes_ = 0;
    }

    std::uint64_t size() const noexcept { return order_.size(); }
    std::uint64_t bytes() const noexcept { return bytes_; }

private:
    struct Entry {
        Key key;
        Value value;
        std::uint64_t bytes;
    };
    std::list<Entry> order_;  // most recently used first
    std::map<Key, typename std::list<Entry>::iterator, std::less<>> index_;
    std::uint64_t bytes_ = 0;
};

}  // namespace gpukit::detail
