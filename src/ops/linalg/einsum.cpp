// src/ops/linalg/einsum.cpp: numpy.einsum (gpukit/linalg.hpp) as views, sums and matrix products:
// a label repeated within an operand takes its diagonal (a strided view), a label no other operand
// and not the output needs is summed away, then the operands are contracted left to right, each
// pair as one batched matmul (labels both keep: the batch; labels both share and nothing later
// needs: the contracted axis), and the result is transposed to the output's order.
#include <algorithm>
#include <map>
#include <set>

#include "gpukit/creation.hpp"
#include "gpukit/error.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

using detail::concat;
using Labels = std::vector<int>;  // letters as themselves; an ellipsis's axes as 256 + their position

// An operand with a label per axis.
struct Term {
    Array array;
    Labels labels;
};

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// One operand's or the output's subscripts, the ellipsis (when there is one) standing for
// `ellipsis_axes` axes labelled 256 + 0.. (right-aligned across operands, as broadcasting aligns).
Labels parse_labels(std::string_view text, std::size_t ellipsis_axes, std::size_t total_ellipsis, bool* has_ellipsis) {
    Labels labels;
    *has_ellipsis = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ' ') continue;
        if (c == '.') {
            if (*has_ellipsis || text.substr(i, 3) != "...")
                throw InvalidArgumentError(
                    "einstein sum subscripts string contains a '.' that is not part of one '...'");
            *has_ellipsis = true;
            for (std::size_t k = 0; k < ellipsis_axes; ++k)
                labels.push_back(256 + static_cast<int>(total_ellipsis - ellipsis_axes + k));
            i += 2;
            continue;
        }
        if (!is_letter(c))
            throw InvalidArgumentError(
                concat("invalid subscript '", c, "' in einstein sum subscripts string, subscripts must be letters"));
        labels.push_back(c);
    }
    return labels;
}

std::size_t letters_in(std::string_view text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), is_letter));
}

// The view of `term` with each repeated label's axes merged into their diagonal.
Term diagonal_of(Term term) {
    Labels labels;
    Shape shape;
    Strides strides;
    for (std::size_t axis = 0; axis < term.labels.size(); ++axis) {
        const auto seen = std::find(labels.begin(), labels.end(), term.labels[axis]);
        if (seen == labels.end()) {
            labels.push_back(term.labels[axis]);
            shape.push_back(term.array.shape()[axis]);
            strides.push_back(term.array.strides()[axis]);
            continue;
        }
        const std::size_t at = static_cast<std::size_t>(seen - labels.begin());
        if (shape[at] != term.array.shape()[axis])
            throw InvalidArgumentError(concat("dimensions in operand for collapsing index '",
                                              static_cast<char>(term.labels[axis]), "' don't match (", shape[at],
                                              " != ", term.array.shape()[axis], ")"));
        strides[at] += term.array.strides()[axis];
    }
    Array view(term.array.memory(), term.array.address(), shape, strides, term.array.dtype());
    return {std::move(view), std::move(labels)};
}

// `term` summed over every label `needed` does not hold.
Term sum_unneeded(Term term, const std::set<int>& needed) {
    std::vector<std::int64_t> axes;
    Labels kept;
    for (std::size_t axis = 0; axis < term.labels.size(); ++axis) {
        if (needed.count(term.labels[axis]))
            kept.push_back(term.labels[axis]);
        else
            axes.push_back(static_cast<std::int64_t>(axis));
    }
    if (axes.empty()) return term;
    ReduceOptions options;
    options.axis = axes;
    return {sum(term.array, options), std::move(kept)};
}

std::int64_t extent_of(const Term& term, int label) {
    const auto at = std::find(term.labels.begin(), term.labels.end(), label);
    return at == term.labels.end() ? 1 : term.array.shape()[static_cast<std::size_t>(at - term.labels.begin())];
}

// `term` transposed to `order` (labels it has) and reshaped to `shape`.
Array arranged(const Term& term, const Labels& order, const Shape& shape) {
    std::vector<std::int64_t> axes;
    for (const int label : order)
        axes.push_back(std::find(term.labels.begin(), term.labels.end(), label) - term.labels.begin());
    return term.array.transpose(axes).reshape(shape);
}

// a and b contracted over the labels both have and `needed` does not; the result's labels: the
// batch (both, needed), then a's own, then b's own.
Term contract(const Term& a, const Term& b, const std::set<int>& needed) {
    Labels batch, left, right, summed;
    for (const int label : a.labels) {
        const bool in_b = std::find(b.labels.begin(), b.labels.end(), label) != b.labels.end();
        if (!in_b)
            left.push_back(label);
        else if (needed.count(label))
            batch.push_back(label);
        else
            summed.push_back(label);
    }
    for (const int label : b.labels)
        if (std::find(a.labels.begin(), a.labels.end(), label) == a.labels.end()) right.push_back(label);
    Shape a_shape, b_shape, result_shape;
    std::int64_t m = 1, n = 1, k = 1;
    for (const int label : batch) {
        a_shape.push_back(extent_of(a, label));
        b_shape.push_back(extent_of(b, label));
        result_shape.push_back(std::max(extent_of(a, label), extent_of(b, label)));
    }
    for (const int label : left) m *= extent_of(a, label);
    for (const int label : right) n *= extent_of(b, label);
    for (const int label : summed) {
        if (extent_of(a, label) != extent_of(b, label))
            throw InvalidArgumentError(concat("operands could not be broadcast together: subscript '",
                                              static_cast<char>(label), "' has ", extent_of(a, label), " and ",
                                              extent_of(b, label), " elements"));
        k *= extent_of(a, label);
    }
    a_shape.insert(a_shape.end(), {m, k});
    b_shape.insert(b_shape.end(), {k, n});
    Labels a_order = batch, b_order = batch;
    a_order.insert(a_order.end(), left.begin(), left.end());
    a_order.insert(a_order.end(), summed.begin(), summed.end());
    b_order.insert(b_order.end(), summed.begin(), summed.end());
    b_order.insert(b_order.end(), right.begin(), right.end());
    const Array product = matmul(arranged(a, a_order, a_shape), arranged(b, b_order, b_shape));
    Labels labels = batch;
    for (const int label : left) {
        labels.push_back(label);
        result_shape.push_back(extent_of(a, label));
    }
    for (const int label : right) {
        labels.push_back(label);
        result_shape.push_back(extent_of(b, label));
    }
    return {product.reshape(result_shape), std::move(labels)};
}

}  // namespace

Array einsum(std::string_view subscripts, std::span<const Array> operands, const EinsumOptions& options) {
    if (operands.empty()) throw InvalidArgumentError("einsum: no operands given");
    for (std::size_t i = 0; i < subscripts.size(); ++i) {
        const char c = subscripts[i];
        const bool arrow_part =
            (c == '-' && subscripts.substr(i, 2) == "->") || (c == '>' && i > 0 && subscripts[i - 1] == '-');
        if (!is_letter(c) && c != ',' && c != '.' && c != ' ' && !arrow_part)
            throw InvalidArgumentError(
                concat("invalid subscript '", c, "' in einstein sum subscripts string, subscripts must be letters"));
    }
    const auto arrow = subscripts.find("->");
    const std::string_view inputs = subscripts.substr(0, arrow);
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const auto comma = inputs.find(',', start);
        parts.push_back(inputs.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    if (parts.size() != operands.size())
        throw InvalidArgumentError(
            concat("einsum: the subscripts name ", parts.size(), " operands, ", operands.size(), " were given"));
    // How many axes each ellipsis stands for, and the broadcast of them all.
    std::size_t total_ellipsis = 0;
    std::vector<std::size_t> ellipsis_axes(parts.size(), 0);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::size_t letters = letters_in(parts[i]);
        const bool has = parts[i].find("...") != std::string_view::npos;
        if (letters > operands[i].ndim() || (!has && letters != operands[i].ndim()))
            throw InvalidArgumentError(concat("einstein sum subscripts string ",
                                              letters > operands[i].ndim()
                                                  ? "contains too many subscripts for operand "
                                                  : "does not name every axis (and has no '...' ellipsis) of operand ",
                                              i));
        ellipsis_axes[i] = has ? operands[i].ndim() - letters : 0;
        total_ellipsis = std::max(total_ellipsis, ellipsis_axes[i]);
    }
    std::vector<Term> terms;
    std::map<int, int> counts;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        bool has = false;
        Term term{operands[i], parse_labels(parts[i], ellipsis_axes[i], total_ellipsis, &has)};
        for (const int label : term.labels) ++counts[label];
        terms.push_back(diagonal_of(std::move(term)));
    }
    // The output: given, or (implicit) the ellipsis's axes then the letters used once, sorted.
    Labels output;
    if (arrow != std::string_view::npos) {
        bool has = false;
        output = parse_labels(subscripts.substr(arrow + 2), total_ellipsis, total_ellipsis, &has);
        for (const int label : output) {
            if (!counts.count(label))
                throw InvalidArgumentError(concat("einstein sum subscripts string included output subscript '",
                                                  static_cast<char>(label), "' which never appeared in an input"));
            if (std::count(output.begin(), output.end(), label) > 1)
                throw InvalidArgumentError(concat("einstein sum subscripts string includes output subscript '",
                                                  static_cast<char>(label), "' multiple times"));
        }
    } else {
        for (std::size_t k = 0; k < total_ellipsis; ++k) output.push_back(256 + static_cast<int>(k));
        for (const auto& [label, count] : counts)
            if (label < 256 && count == 1) output.push_back(label);
        // NumPy's order: alphabetical, upper-case letters before lower-case ones (ASCII); counts is sorted so.
    }
    const DType dtype = options.dtype.value_or([&] {
        std::vector<DType> dtypes;
        for (const Array& operand : operands) dtypes.push_back(operand.dtype());
        return result_type(dtypes);
    }());
    for (Term& term : terms)
        if (term.array.dtype() != dtype) term.array = term.array.astype(dtype);

    // Left to right: what the output and the operands not yet contracted need.
    const auto needed_after = [&](std::size_t index) {
        std::set<int> needed(output.begin(), output.end());
        for (std::size_t j = index + 1; j < terms.size(); ++j)
            needed.insert(terms[j].labels.begin(), terms[j].labels.end());
        return needed;
    };
    Term result = terms.front();
    if (terms.size() == 1) {
        result = sum_unneeded(result, needed_after(0));
    } else {
        for (std::size_t j = 1; j < terms.size(); ++j) {
            const std::set<int> needed = needed_after(j);
            const Term left = sum_unneeded(result, [&] {
                std::set<int> keep = needed;
                keep.insert(terms[j].labels.begin(), terms[j].labels.end());
                return keep;
            }());
            const Term right = sum_unneeded(terms[j], [&] {
                std::set<int> keep = needed;
                keep.insert(left.labels.begin(), left.labels.end());
                return keep;
            }());
            result = contract(left, right, needed);
        }
    }
    std::vector<std::int64_t> order;
    for (const int label : output)
        order.push_back(std::find(result.labels.begin(), result.labels.end(), label) - result.labels.begin());
    Array final_result = result.array.transpose(order);
    if (options.out) {
        copyto(*options.out, final_result, options.casting);
        return *options.out;
    }
    // A new array, as NumPy's: the products and sums made one already; a view of an operand is copied.
    const bool fresh = std::none_of(operands.begin(), operands.end(),
                                    [&](const Array& operand) { return operand.memory() == final_result.memory(); });
    return fresh && final_result.is_c_contiguous() ? final_result : final_result.copy();
}

}  // namespace gpukit
