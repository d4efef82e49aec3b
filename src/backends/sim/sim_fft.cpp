// src/backends/sim/sim_fft.cpp: the simulator's FFT library (sim_fft.hpp).
//
// A plan is one CpuFft per distinct extent. Each transform of the batch is done axis by axis:
// the innermost axis first for real-to-complex (its half spectrum then goes through the other
// axes), last for complex-to-real (the other axes first, on a copy, then the half spectra to
// real lines), as FFTW and cuFFT define the multi-dimensional real transforms.
#include "backends/sim/sim_fft.hpp"

#include <algorithm>
#include <complex>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "backends/fft_plan_cache.hpp"
#include "backends/sim/cpu_fft.hpp"

namespace gpukit::detail::sim {

namespace {

using Complex = std::complex<double>;

struct SimFftPlan {
    FftPlanKey key;
    std::map<std::int64_t, std::shared_ptr<const CpuFft>> by_extent;
    const CpuFft& along(std::int64_t extent) const { return *by_extent.at(extent); }
};

// Element access in the data's own precision; arithmetic in double.
template <class Real>
struct Elements {
    static Complex load_complex(std::uint64_t base, std::int64_t i) {
        const auto* p = reinterpret_cast<const std::complex<Real>*>(base) + i;
        return {static_cast<double>(p->real()), static_cast<double>(p->imag())};
    }
    static double load_real(std::uint64_t base, std::int64_t i) { return reinterpret_cast<const Real*>(base)[i]; }
    static void store_complex(std::uint64_t base, std::int64_t i, Complex v) {
        reinterpret_cast<std::complex<Real>*>(base)[i] = {static_cast<Real>(v.real()), static_cast<Real>(v.imag())};
    }
    static void store_real(std::uint64_t base, std::int64_t i, double v) {
        reinterpret_cast<Real*>(base)[i] = static_cast<Real>(v);
    }
};

// Transforms `data` (dense, C order, `extents`) along every axis but those from `skip_from` on.
void transform_axes(const SimFftPlan& plan, std::vector<Complex>& data, const std::vector<std::int64_t>& extents,
                    std::size_t skip_from, bool inverse, std::vector<Complex>& line, std::vector<Complex>& scratch) {
    std::int64_t total = 1;
    for (std::int64_t e : extents) total *= e;
    std::int64_t inner = total;
    for (std::size_t axis = 0; axis < extents.size(); ++axis) {
        const std::int64_t n = extents[axis];
        inner /= n;  // elements from one step along `axis` to the next
        if (axis >= skip_from || n <= 1) continue;
        const CpuFft& fft = plan.along(n);
        line.resize(static_cast<std::size_t>(n));
        for (std::int64_t outer = 0; outer < total / (n * inner); ++outer) {
            for (std::int64_t offset = 0; offset < inner; ++offset) {
                Complex* base = data.data() + outer * n * inner + offset;
                for (std::int64_t j = 0; j < n; ++j) line[static_cast<std::size_t>(j)] = base[j * inner];
                fft.run(line.data(), inverse, scratch);
                for (std::int64_t j = 0; j < n; ++j) base[j * inner] = line[static_cast<std::size_t>(j)];
            }
        }
    }
}

template <class Real>
void run_batch(const SimFftPlan& plan, FftDirection direction, std::uint64_t input, std::uint64_t output) {
    using E = Elements<Real>;
    const FftPlanKey& key = plan.key;
    const bool inverse = direction == FftDirection::inverse;
    const std::int64_t last = key.extents.back();
    const std::int64_t half = last / 2 + 1;
    std::vector<std::int64_t> complex_extents = key.extents;
    if (key.type != FftType::c2c) complex_extents.back() = half;
    const std::int64_t complex_count = fft_complex_elements(key);
    const std::int64_t rows = fft_real_elements(key) / last;
    std::vector<Complex> data(static_cast<std::size_t>(complex_count)), line, scratch, row;
    for (std::int64_t b = 0; b < key.batch; ++b) {
        const std::uint64_t in =
            input + static_cast<std::uint64_t>(b * key.input_distance *
                                               (key.type == FftType::r2c ? sizeof(Real) : 2 * sizeof(Real)));
        const std::uint64_t out =
            output + static_cast<std::uint64_t>(b * key.output_distance *
                                                (key.type == FftType::c2r ? sizeof(Real) : 2 * sizeof(Real)));
        switch (key.type) {
            case FftType::c2c:
                for (std::int64_t i = 0; i < complex_count; ++i)
                    data[static_cast<std::size_t>(i)] = E::load_complex(in, i);
                transform_axes(plan, data, complex_extents, complex_extents.size(), inverse, line, scratch);
                for (std::int64_t i = 0; i < complex_count; ++i)
                    E::store_complex(out, i, data[static_cast<std::size_t>(i)]);
                break;
            case FftType::r2c: {
                const CpuFft& fft = plan.along(last);
                row.resize(static_cast<std::size_t>(last));
                for (std::int64_t r = 0; r < rows; ++r) {
                    for (std::int64_t j = 0; j < last; ++j)
                        row[static_cast<std::size_t>(j)] = E::load_real(in, r * last + j);
                    fft.run(row.data(), false, scratch);
                    std::copy_n(row.begin(), half, data.begin() + r * half);
                }
                transform_axes(plan, data, complex_extents, complex_extents.size() - 1, false, line, scratch);
                for (std::int64_t i = 0; i < complex_count; ++i)
                    E::store_complex(out, i, data[static_cast<std::size_t>(i)]);
                break;
            }
            case FftType::c2r: {
                for (std::int64_t i = 0; i < complex_count; ++i)
                    data[static_cast<std::size_t>(i)] = E::load_complex(in, i);
                transform_axes(plan, data, complex_extents, complex_extents.size() - 1, true, line, scratch);
                const CpuFft& fft = plan.along(last);
                row.resize(static_cast<std::size_t>(last));
                for (std::int64_t r = 0; r < rows; ++r) {
                    // The full spectrum of a real line: X[n - k] = conj(X[k]). The imaginary parts of
                    // X[0] (and X[n/2]) add only imaginary parts to the line, which are dropped.
                    const Complex* h = data.data() + r * half;
                    for (std::int64_t k = 0; k < half; ++k) row[static_cast<std::size_t>(k)] = h[k];
                    for (std::int64_t k = half; k < last; ++k)
                        row[static_cast<std::size_t>(k)] = std::conj(h[last - k]);
                    fft.run(row.data(), true, scratch);
                    for (std::int64_t j = 0; j < last; ++j)
                        E::store_real(out, r * last + j, row[static_cast<std::size_t>(j)].real());
                }
                break;
            }
        }
    }
}

class SimFft final : public FftLibrary {
public:
    explicit SimFft(SimFftHooks hooks) : hooks_(std::move(hooks)) {}

    std::string identity() const override { return "gpukit's CPU FFT (mixed radix and Bluestein, in double)"; }

    void execute(int, const FftPlanKey& key, FftDirection direction, std::uint64_t input, std::uint64_t output,
                 NativeStream stream) override {
        if (key.extents.empty() || key.batch <= 0) return;
        std::shared_ptr<SimFftPlan> plan = plans_.get(key, [&] { return make_plan(key); });
        const std::size_t element = key.precision == FftPrecision::single ? sizeof(float) : sizeof(double);
        const std::size_t out_bytes =
            static_cast<std::size_t>((key.batch - 1) * key.output_distance + fft_output_elements(key)) * element *
            (key.type == FftType::c2r ? 1 : 2);
        hooks_.enqueue(stream, [this, plan, direction, input, output, out_bytes] {
            if (plan->key.precision == FftPrecision::single)
                run_batch<float>(*plan, direction, input, output);
            else
                run_batch<double>(*plan, direction, input, output);
            hooks_.wrote(output, out_bytes);
        });
    }

private:
    std::shared_ptr<SimFftPlan> make_plan(const FftPlanKey& key) {
        auto plan = std::make_shared<SimFftPlan>();
        plan->key = key;
        for (std::int64_t extent : key.extents) {
            auto& fft = plan->by_extent[extent];
            if (!fft) fft = one_dimensional(extent);
        }
        return plan;
    }
    // One-dimensional transforms are shared between plans: their twiddles are the costly part.
    std::shared_ptr<const CpuFft> one_dimensional(std::int64_t n) {
        std::lock_guard lock(mutex_);
        auto& weak = lines_[n];
        if (auto existing = weak.lock()) return existing;
        auto made = std::make_shared<const CpuFft>(static_cast<std::size_t>(n));
        weak = made;
        return made;
    }

    SimFftHooks hooks_;
    FftPlanCache<SimFftPlan> plans_;
    std::mutex mutex_;
    std::map<std::int64_t, std::weak_ptr<const CpuFft>> lines_;
};

}  // namespace

std::unique_ptr<FftLibrary> make_sim_fft(SimFftHooks hooks) { return std::make_unique<SimFft>(std::move(hooks)); }

}  // namespace gpukit::detail::sim
