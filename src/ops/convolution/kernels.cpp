// src/ops/convolution/kernels.cpp: launching the convolution kernels (their modules: ops/own_kernels.hpp).
#include "ops/convolution/kernels.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "gpukit/current_stream.hpp"
#include "gpukit/event.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/module.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/own_kernels.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

// GK_CONV_CONSTANT_WORDS doubles of __constant__ memory hold the weights on a GPU.
constexpr std::int64_t constant_weight_bytes = std::int64_t{1024} * 8;
// The line shape's outputs per block (GK_CONV_LINE_TILE) and the tile's (GK_CONV_TILE_X x _Y).
constexpr std::int64_t line_threads = 256, line_tile = line_threads * 8;
constexpr std::int64_t tile_x = 32, tile_y = 64, tile_threads_y = 8;
// A block's staged inputs stay under the shared memory every GPU gives without opting in.
constexpr std::int64_t max_stage_bytes = std::int64_t{48} * 1024;
// Taps up to this many become compile-time constants of the tiled shapes (their loops unroll).
constexpr std::int64_t max_unrolled_taps = 32;

// The simulator runs one generic module that reads dtypes and modes from the parameters, each
// simulated thread a contiguous chunk; a GPU (and the simulator when tests ask for the GPU's
// shapes) gets a module per dtypes, mode and kernel shape, whose constants the compiler folds.
enum class Shape2 { generic, line, tile2d };

std::string specialisation(const Device& device, const ConvolutionParams& p, Shape2 shape) {
    if (runs_chunked_shapes(device)) return {};
    std::string defines = device.backend_info().capabilities.simulated ? "#define GK_GPU_SHAPES\n" : "";
    defines +=
        concat("#define GK_CONV_SPECIALISED\n#define GK_CONV_INPUT_DTYPE ", p.input_dtype,
               "\n#define GK_CONV_OUT_DTYPE ", p.out_dtype, "\n#define GK_CONV_COMPUTE ", static_cast<int>(p.compute),
               "\n#define GK_CONV_MODE ", static_cast<int>(p.mode), "\n#define GK_CONV_IN_CONSTANT ", p.constant, "\n");
    const std::int64_t last = p.weight_shape[p.ndim - 1];
    if (shape == Shape2::line && p.weight_shape[p.axis] <= max_unrolled_taps)
        defines += concat("#define GK_CONV_TAPS_X ", p.weight_shape[p.axis], "\n");
    if (shape == Shape2::tile2d && last <= max_unrolled_taps && p.weight_shape[0] <= max_unrolled_taps)
        defines += concat("#define GK_CONV_TAPS_X ", last, "\n#define GK_CONV_TAPS_Y ", p.weight_shape[0], "\n");
    return defines;
}

// Strides in elements (the kernels index by element); a copy where a stride is not a whole number.
Array element_strided(const Array& a) {
    for (const std::int64_t stride : a.strides())
        if (stride % a.itemsize() != 0) return a.copy();
    return a;
}

std::int64_t stage_words(ConvolutionCompute compute) { return compute == ConvolutionCompute::complex ? 2 : 1; }

// The one dimension along which the weights have more than one element (the line shape's axis),
// or -1 where several do or another dimension's output is not its input (the line shape walks the
// other dimensions of input and output alike).
int line_axis(const ConvolutionParams& p) {
    int axis = p.ndim - 1;
    int wide = 0;
    for (int d = 0; d < p.ndim; ++d)
        if (p.weight_shape[d] > 1) {
            axis = d;
            ++wide;
        }
    for (int d = 0; d < p.ndim; ++d)
        if (d != axis && (p.offset[d] != 0 || p.in_shape[d] != p.out_shape[d])) return -1;
    return wide <= 1 ? axis : -1;
}

std::uint32_t blocks_for(std::int64_t work) {
    constexpr std::int64_t max_blocks = std::int64_t{1} << 20;  // the rest loop inside (grid-stride)
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(work, 1, max_blocks));
}

}  // namespace

void launch_correlation(const CorrelationLaunch& launch) {
    const Array& out = launch.out;
    if (out.size() == 0) return;
    if (launch.weights.size() == 0) {  // an empty sum
        out.fill(0);
        return;
    }
    const Array input = element_strided(launch.input);
    const Device& device = input.device();
    const StreamRef stream = current_stream(device);
    ConvolutionParams p;
    p.ndim = static_cast<std::int32_t>(input.ndim());
    for (int d = 0; d < p.ndim; ++d) {
        const auto u = static_cast<std::size_t>(d);
        p.in_shape[d] = input.shape()[u];
        p.in_strides[d] = input.strides()[u] / input.itemsize();
        p.out_shape[d] = out.shape()[u];
        p.out_strides[d] = out.strides()[u] / out.itemsize();
        p.weight_shape[d] = launch.weights.shape()[u];
        p.offset[d] = launch.offset[u];
    }
    p.size = out.size();
    p.weight_size = launch.weights.size();
    p.cval_real = launch.cval_real;
    p.cval_imag = launch.cval_imag;
    p.divisor = launch.divisor;
    p.input_dtype = static_cast<std::int32_t>(input.dtype());
    p.out_dtype = static_cast<std::int32_t>(out.dtype());
    p.compute = launch.compute;
    p.mode = launch.mode;
    p.input = launch_address(input, stream);
    p.weights = launch_address(launch.weights, stream);
    p.out = launch_address(out, stream);

    LaunchConfig config;
    config.stream = stream;
    Shape2 shape = Shape2::generic;
    const std::int64_t words = stage_words(p.compute);
    if (runs_chunked_shapes(device)) {
        config = elementwise_launch_config(true, p.size, stream);
    } else {
        p.constant = launch.weights.nbytes() <= constant_weight_bytes ? 1 : 0;
        const int axis = line_axis(p);
        const std::int64_t last = p.weight_shape[p.ndim - 1];
        // The line's stage holds a pad every 8 values (gk_conv_padded).
        const std::int64_t line_stage = line_tile + (axis >= 0 ? p.weight_shape[axis] : 0) - 1;
        const std::int64_t line_stage_bytes = (line_stage + line_stage / 8 + 1) * words * 8;
        if (axis >= 0 && line_stage_bytes <= max_stage_bytes) {
            shape = Shape2::line;
            p.axis = axis;
            p.lines = p.size / p.out_shape[axis];
            p.tiles = (p.out_shape[axis] + line_tile - 1) / line_tile;
            config.block = Dim3(static_cast<std::uint32_t>(line_threads));
            config.grid = Dim3(blocks_for(p.lines * p.tiles));
            config.shared_bytes = static_cast<std::size_t>(line_stage_bytes);
        } else if (p.ndim == 2 &&
                   (tile_y + p.weight_shape[0] - 1) * (tile_x + last - 1) * words * 8 <= max_stage_bytes) {
            shape = Shape2::tile2d;
            p.tiles_x = (p.out_shape[1] + tile_x - 1) / tile_x;
            p.tiles = p.tiles_x * ((p.out_shape[0] + tile_y - 1) / tile_y);
            config.block = Dim3(static_cast<std::uint32_t>(tile_x), static_cast<std::uint32_t>(tile_threads_y));
            config.grid = Dim3(blocks_for(p.tiles));
            config.shared_bytes =
                static_cast<std::size_t>((tile_y + p.weight_shape[0] - 1) * (tile_x + last - 1) * words * 8);
        } else {
            config = elementwise_launch_config(false, p.size, stream);
        }
    }
    const OwnKernelSource source{
        "gpukit_convolution.cu", convolution_header_name, convolution_header(), specialisation(device, p, shape), {}};
    const char* name = shape == Shape2::line     ? "gk_convolve_line"
                       : shape == Shape2::tile2d ? "gk_convolve_tile2d"
                                                 : "gk_convolve";
    const Kernel kernel = own_kernel(device, source, name);
    if (!p.constant) {
        kernel(config, p);
        return;
    }
    // The weights go to the module's constant memory on this stream, before the launch reads them.
    // One module's constant memory serves one launch at a time: a launch on another stream first
    // waits for the module's last launch (its event), so that no weights are overwritten in use.
    static std::mutex order;
    static auto* last_use = new std::map<std::tuple<const void*, int, std::string>, Event>;  // never destroyed
    const std::lock_guard lock(order);
    const auto key =
        std::make_tuple(static_cast<const void*>(&device.backend_info()), device.ordinal(), source.defines);
    if (const auto found = last_use->find(key); found != last_use->end()) stream.wait(found->second);
    const std::int64_t bytes = launch.weights.nbytes();
    module_global(own_kernel_module(device, source), "gk_conv_weights")
        .index({Slice{0, bytes, {}}})
        .assign(launch.weights.reinterpret(DType::uint8, {bytes}));
    kernel(config, p);
    Event done(device, EventFlags::no_timing);
    done.record(stream);
    last_use->insert_or_assign(key, std::move(done));
}

}  // namespace gpukit::detail
