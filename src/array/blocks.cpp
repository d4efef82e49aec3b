// src/array/blocks.cpp: block (gpukit/shape_ops.hpp), NumPy's arrangement of arrays by nested lists.
// The nesting is checked first (NumPy's messages name the offending list as arrays[i][j]), then each
// list is concatenated along the axis its depth stands for, the innermost along the last.
#include <algorithm>
#include <string>

#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace {

using detail::concat;

// What the nesting holds: its depth (the same for every block), and the most dimensions of a block.
struct Nesting {
    std::optional<std::size_t> depth;  // of the first block found
    std::string first_path;            // where that block is
    std::size_t most_dimensions = 0;
};

void survey(const Blocks& blocks, const std::string& path, std::size_t depth, Nesting& nesting) {
    if (blocks.array) {
        if (!nesting.depth) {
            nesting.depth = depth;
            nesting.first_path = path;
        } else if (*nesting.depth != depth) {
            throw InvalidArgumentError(concat("List depths are mismatched. First element was at depth ", *nesting.depth,
                                              ", but there is an element at depth ", depth, " (", path, ")"));
        }
        nesting.most_dimensions = std::max(nesting.most_dimensions, blocks.array->ndim());
        return;
    }
    if (blocks.items.empty()) throw InvalidArgumentError(concat("List at ", path, " cannot be empty"));
    for (std::size_t k = 0; k < blocks.items.size(); ++k)
        survey(blocks.items[k], concat(path, "[", k, "]"), depth + 1, nesting);
}

// A block with leading dimensions of extent 1 up to `ndim`: a view.
Array with_dimensions(const Array& a, std::size_t ndim) {
    Shape shape(ndim - a.ndim(), 1);
    shape.insert(shape.end(), a.shape().begin(), a.shape().end());
    return a.reshape(shape);
}

// The blocks at list depth `depth` (of `list_depth`) joined: along axis -(list_depth - depth).
Array joined(const Blocks& blocks, std::size_t depth, std::size_t list_depth, std::size_t ndim) {
    if (blocks.array) return with_dimensions(*blocks.array, ndim);
    std::vector<Array> parts;
    parts.reserve(blocks.items.size());
    for (const Blocks& item : blocks.items) parts.push_back(joined(item, depth + 1, list_depth, ndim));
    return concatenate(parts, -static_cast<std::int64_t>(list_depth - depth));
}

}  // namespace

Array block(const Blocks& arrays) {
    Nesting nesting;
    survey(arrays, "arrays", 0, nesting);
    const std::size_t list_depth = *nesting.depth;
    const std::size_t ndim = std::max(list_depth, nesting.most_dimensions);
    // A lone array is copied, as NumPy's block copies it; concatenate makes the rest new.
    if (list_depth == 0) return with_dimensions(*arrays.array, ndim).copy();
    return joined(arrays, 0, list_depth, ndim);
}

}  // namespace gpukit
