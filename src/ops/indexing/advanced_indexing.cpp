// src/ops/indexing/advanced_indexing.cpp: a[key] and a[key] = v for keys with index arrays, as
// NumPy's rules place the result's dimensions (gpukit/advanced_indexing.hpp), planned as one gather
// or scatter (src/ops/indexing/gather.hpp).
//
// A key is applied in two steps. The basic items (integers, slices, newaxis, ellipsis) make a view,
// in which every index array keeps the dimensions it indexes whole. The index arrays then become
// index operands over that view: an integer array selects along its one dimension; a mask becomes
// the flat positions of its true elements, which unravel over its dimensions; a 0-d bool is the
// value 0 repeated once (True) or never (False). Integers in such a key are applied by the view,
// but count as advanced indices where NumPy decides whether the advanced indices are adjacent.
#include "gpukit/advanced_indexing.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "array/convert.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/indexing/gather.hpp"
#include "ops/indexing/select.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

void detail::convert_element(const std::byte* value, DType from, std::byte* element, DType to) {
    convert_elements(value, 0, from, element, 0, to, 1);
}

namespace {

bool is_advanced(const KeyItem& item) {
    return std::holds_alternative<Array>(item) || std::holds_alternative<bool>(item);
}

bool is_basic(std::span<const KeyItem> key) { return std::none_of(key.begin(), key.end(), is_advanced); }

std::vector<Index> basic_key(std::span<const KeyItem> key) {
    std::vector<Index> items;
    items.reserve(key.size());
    for (const KeyItem& item : key) {
        std::visit(
            [&](const auto& value) {
                using T = std::decay_t<decltype(value)>;
                if constexpr (!std::is_same_v<T, Array> && !std::is_same_v<T, bool>) items.emplace_back(value);
            },
            item);
    }
    return items;
}

// An advanced item of a key, and where it sits in the view the basic items make.
struct Advanced {
    enum class Kind : std::uint8_t { integers, mask, boolean, integer };
    Kind kind;
    std::size_t first_dim;  // its first dimension in the view (for an integer or a bool: where it stood)
    std::size_t ndim;       // the view dimensions it indexes: 1 for integers, the mask's, else 0
    std::int64_t axis;      // the indexed array's axis of its first dimension, for messages
    const Array* array = nullptr;
    bool value = false;
};

struct Prepared {
    Array view;  // the basic items applied; each index array's dimensions kept whole
    std::vector<Advanced> advanced;
    bool adjacent = true;  // the advanced items stand next to one another in the key
};

Prepared prepare(const Array& a, std::span<const KeyItem> key) {
    std::size_t consumed = 0;
    std::size_t ellipses = 0;
    for (const KeyItem& item : key) {
        if (std::holds_alternative<std::int64_t>(item) || std::holds_alternative<Slice>(item)) ++consumed;
        if (std::holds_alternative<Ellipsis>(item)) ++ellipses;
        if (const auto* array = std::get_if<Array>(&item))
            consumed += array->dtype() == DType::bool_ ? array->ndim() : 1;
    }
    if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
    if (consumed > a.ndim())
        throw IndexError(
            concat("too many indices for array: array is ", a.ndim(), "-dimensional, but ", consumed, " were indexed"));

    std::vector<Index> basic;
    std::vector<Advanced> advanced;
    std::size_t view_dim = 0, first_advanced_item = key.size(), last_advanced_item = 0;
    std::int64_t axis = 0;
    for (std::size_t k = 0; k < key.size(); ++k) {
        const KeyItem& item = key[k];
        if (is_advanced(item) || std::holds_alternative<std::int64_t>(item)) {
            first_advanced_item = std::min(first_advanced_item, k);
            last_advanced_item = k;
        }
        if (const auto* integer = std::get_if<std::int64_t>(&item)) {
            basic.emplace_back(*integer);
            advanced.push_back({Advanced::Kind::integer, view_dim, 0, axis++});
        } else if (const auto* slice = std::get_if<Slice>(&item)) {
            basic.emplace_back(*slice);
            ++view_dim;
            ++axis;
        } else if (std::holds_alternative<NewAxis>(item)) {
            basic.emplace_back(newaxis);
            ++view_dim;
        } else if (std::holds_alternative<Ellipsis>(item)) {
            basic.emplace_back(ellipsis);
            const std::size_t dims = a.ndim() - consumed;
            view_dim += dims;
            axis += static_cast<std::int64_t>(dims);
        } else if (const auto* boolean = std::get_if<bool>(&item)) {
            advanced.push_back({Advanced::Kind::boolean, view_dim, 0, axis, nullptr, *boolean});
        } else {
            const Array& array = std::get<Array>(item);
            const bool mask = array.dtype() == DType::bool_;
            if (!mask && kind(array.dtype()) != DTypeKind::signed_integer &&
                kind(array.dtype()) != DTypeKind::unsigned_integer)
                throw IndexError(concat("arrays used as indices must be of integer (or boolean) type, not ",
                                        to_string(array.dtype())));
            const std::size_t dims = mask ? array.ndim() : 1;
            for (std::size_t d = 0; d < dims; ++d) basic.emplace_back(Slice{});
            advanced.push_back({mask ? Advanced::Kind::mask : Advanced::Kind::integers, view_dim, dims, axis, &array});
            view_dim += dims;
            axis += static_cast<std::int64_t>(dims);
        }
    }
    Prepared prepared{a.index(basic), std::move(advanced), true};
    for (std::size_t k = first_advanced_item; k <= last_advanced_item && k < key.size(); ++k)
        if (!is_advanced(key[k]) && !std::holds_alternative<std::int64_t>(key[k])) prepared.adjacent = false;
    return prepared;
}

// A mask must have the shape of the dimensions it indexes; an empty one selects nothing from any
// extent, as NumPy's does.
void check_mask(const Prepared& prepared, const Advanced& item) {
    const Shape& shape = item.array->shape();
    if (item.array->size() == 0) return;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        const std::int64_t extent = prepared.view.shape()[item.first_dim + d];
        if (shape[d] != extent)
            throw IndexError(concat("boolean index did not match indexed array along axis ", item.axis + d,
                                    "; size of axis is ", extent, " but size of corresponding boolean axis is ",
                                    shape[d]));
    }
}

// The arrays a kernel reads while writing `target` must not be its memory: copies of those that are.
Array apart_from(const Array& array, const Array& target) {
    return array.memory() == target.memory() ? array.copy() : array;
}

// The one gather or scatter a prepared key amounts to. Masks are counted (a wait) here.
detail::GatherPlan plan(const Prepared& prepared, const Array* written) {
    const Array& view = prepared.view;
    std::vector<detail::IndexOperand> operands;
    std::vector<Shape> shapes;
    for (const Advanced& item : prepared.advanced) {
        detail::IndexOperand operand;
        operand.axis = item.axis;
        Shape shape;
        switch (item.kind) {
            case Advanced::Kind::integer: continue;  // applied by the view
            case Advanced::Kind::boolean:
                shape = {item.value ? 1 : 0};
                operand.strides = {0};
                operand.size = 1;
                break;
            case Advanced::Kind::integers: {
                const Array values = written ? apart_from(*item.array, *written) : *item.array;
                shape = values.shape();
                operand.strides = values.strides();
                operand.values = values;
                operand.axis_extents = {view.shape()[item.first_dim]};
                operand.axis_strides = {view.strides()[item.first_dim]};
                operand.size = view.shape()[item.first_dim];
                break;
            }
            case Advanced::Kind::mask: {
                check_mask(prepared, item);
                const std::int64_t elements = item.array->size();
                Array positions = detail::flat_positions(
                    *item.array, elements <= std::numeric_limits<std::int32_t>::max() ? DType::int32 : DType::int64);
                shape = positions.shape();
                operand.strides = positions.strides();
                operand.values = std::move(positions);
                const auto first = static_cast<std::ptrdiff_t>(item.first_dim);
                const auto last = first + static_cast<std::ptrdiff_t>(item.ndim);
                operand.axis_extents.assign(view.shape().begin() + first, view.shape().begin() + last);
                operand.axis_strides.assign(view.strides().begin() + first, view.strides().begin() + last);
                operand.size = elements;
                operand.trusted = true;
                break;
            }
        }
        shapes.push_back(std::move(shape));
        operands.push_back(std::move(operand));
    }

    Shape broadcast;
    try {
        broadcast = detail::broadcast_shapes(shapes);
    } catch (const InvalidArgumentError&) {
        std::string message = "shape mismatch: indexing arrays could not be broadcast together with shapes";
        for (const Shape& shape : shapes) message += " " + format_shape(shape);
        throw IndexError(message);
    }

    // The view's dimensions no index array indexes keep their place; the broadcast dimensions go
    // where the advanced items stood when they are adjacent, and first otherwise.
    std::vector<bool> indexed(view.ndim(), false);
    for (const Advanced& item : prepared.advanced)
        for (std::size_t d = 0; d < item.ndim; ++d) indexed[item.first_dim + d] = true;
    std::size_t insert_at = 0;
    if (prepared.adjacent)
        for (std::size_t d = 0; d < prepared.advanced.front().first_dim; ++d) insert_at += indexed[d] ? 0 : 1;

    detail::GatherPlan result{view, {}, {}, {}};
    std::size_t kept = 0;
    const auto add_broadcast_dims = [&] {
        for (std::int64_t extent : broadcast) {
            result.shape.push_back(extent);
            result.base_strides.push_back(0);
        }
    };
    if (insert_at == 0) add_broadcast_dims();
    for (std::size_t d = 0; d < view.ndim(); ++d) {
        if (indexed[d]) continue;
        result.shape.push_back(view.shape()[d]);
        result.base_strides.push_back(view.strides()[d]);
        if (++kept == insert_at) add_broadcast_dims();
    }
    for (std::size_t k = 0; k < operands.size(); ++k) {
        const Strides strides = detail::broadcast_strides(shapes[k], operands[k].strides, broadcast);
        Strides placed(result.shape.size(), 0);
        std::copy(strides.begin(), strides.end(), placed.begin() + static_cast<std::ptrdiff_t>(insert_at));
        operands[k].strides = std::move(placed);
    }
    result.indices = std::move(operands);
    return result;
}

// The key is one mask (with basic items around it): a[key] = one value needs no positions.
const Advanced* lone_mask(const Prepared& prepared) {
    if (prepared.advanced.size() != 1 || prepared.advanced.front().kind != Advanced::Kind::mask) return nullptr;
    check_mask(prepared, prepared.advanced.front());
    return &prepared.advanced.front();
}

// The mask seen in the view's shape: its strides along its dimensions, 0 along the others.
Array mask_over_view(const Prepared& prepared, const Advanced& item) {
    const Array mask = apart_from(*item.array, prepared.view);
    Strides strides(prepared.view.ndim(), 0);
    std::copy(mask.strides().begin(), mask.strides().end(),
              strides.begin() + static_cast<std::ptrdiff_t>(item.first_dim));
    return {mask.memory(), mask.address(), prepared.view.shape(), std::move(strides), DType::bool_};
}

// `values` as a[key] = values sees them: leading dimensions of extent 1 beyond the result's
// dropped, checked to broadcast to `shape` (InvalidArgumentError otherwise); for a kernel (`for_kernel`),
// in target's dtype and apart from its memory.
Array values_for(const Array& values, const Shape& shape, const Array& target, bool for_kernel) {
    Shape extents = values.shape();
    Strides strides = values.strides();
    while (extents.size() > shape.size() && extents.front() == 1) {
        extents.erase(extents.begin());
        strides.erase(strides.begin());
    }
    try {
        detail::broadcast_strides(extents, strides, shape);
    } catch (const InvalidArgumentError&) {
        throw InvalidArgumentError(concat("shape mismatch: value array of shape ", format_shape(values.shape()),
                                          " could not be broadcast to indexing result of shape ", format_shape(shape)));
    }
    Array squeezed(values.memory(), values.address(), std::move(extents), std::move(strides), values.dtype());
    if (!for_kernel) return squeezed;
    if (squeezed.dtype() != target.dtype()) return squeezed.astype(target.dtype());
    return apart_from(squeezed, target);
}

}  // namespace

Array getitem(const Array& a, std::span<const KeyItem> key) {
    if (is_basic(key)) return a.index(basic_key(key));
    const Prepared prepared = prepare(a, key);
    const detail::GatherPlan gather_plan = plan(prepared, nullptr);
    Array out = Array::empty(gather_plan.shape, a.dtype(), a.device());
    detail::gather(gather_plan, out, IndexMode::raise);
    return out;
}

void setitem(const Array& a, std::span<const KeyItem> key, const Array& values) {
    if (is_basic(key)) {
        Array view = a.index(basic_key(key));
        view.assign(values_for(values, view.shape(), a, false));
        return;
    }
    const Prepared prepared = prepare(a, key);
    if (const Advanced* mask = lone_mask(prepared);
        mask && values.size() == 1 && values.ndim() <= prepared.view.ndim() - mask->ndim + 1) {
        if (mask->array->size() == 0) return;  // an empty mask selects nothing
        const Array value = values.dtype() == a.dtype() ? apart_from(values, a) : values.astype(a.dtype());
        detail::fill_selected(mask_over_view(prepared, *mask), prepared.view, &value, {});
        return;
    }
    const detail::GatherPlan scatter_plan = plan(prepared, &a);
    const Advanced& first = prepared.advanced.front();
    if (prepared.advanced.size() == 1 && first.kind == Advanced::Kind::mask && first.ndim == a.ndim() &&
        values.ndim() <= 1 && values.size() != 1 && values.size() != scatter_plan.shape.front())
        throw InvalidArgumentError(concat("boolean array indexing assignment cannot assign ", values.size(),
                                          " input values to the ", scatter_plan.shape.front(),
                                          " output values where the mask is true"));
    detail::scatter(scatter_plan, values_for(values, scatter_plan.shape, a, true), IndexMode::raise);
}

void setitem_bytes(const Array& a, std::span<const KeyItem> key, std::span<const std::byte> element) {
    if (element.size() != static_cast<std::size_t>(a.itemsize()))
        throw InvalidArgumentError(concat("a[key] = value takes one ", to_string(a.dtype()), " element (", a.itemsize(),
                                          " bytes), not ", element.size(), " bytes"));
    if (is_basic(key)) {
        a.index(basic_key(key)).fill_bytes(element);
        return;
    }
    const Prepared prepared = prepare(a, key);
    if (const Advanced* mask = lone_mask(prepared)) {
        if (mask->array->size() == 0) return;  // an empty mask selects nothing
        detail::fill_selected(mask_over_view(prepared, *mask), prepared.view, nullptr, element);
        return;
    }
    detail::scatter(plan(prepared, &a), element, IndexMode::raise);
}

}  // namespace gpukit
